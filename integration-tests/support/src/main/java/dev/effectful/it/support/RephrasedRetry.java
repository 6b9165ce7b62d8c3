package dev.effectful.it.support;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The habit that makes real models dangerous, for the formats that read the conversation they are
 * sent: a charge whose answer failed is issued again at once, same order, the amount worded
 * differently, at most three times. Reading only the conversation (never counting in the server) makes
 * a restarted process's model behave the same.
 */
public final class RephrasedRetry {

    /** Charges issued for one order before the model gives up and answers. */
    public static final int MAX_CHARGES = 3;

    private static final String[] AMOUNTS = {"89 dollars", "$89.00", "8900 cents", "USD 89.00", "eighty-nine dollars"};
    private static final Pattern ORDER = Pattern.compile("o-\\d+");

    private final int phrasing;

    /** @param phrasing the first wording used (a restarted model words it differently) */
    public RephrasedRetry(int phrasing) {
        this.phrasing = phrasing;
    }

    /** The amount of the charge after {@code retry} earlier ones, worded as this model words it. */
    public String amount(int retry) {
        return AMOUNTS[(phrasing + retry) % AMOUNTS.length];
    }

    /** The first order id in a user's text, or null. */
    public static String order(String text) {
        Matcher m = ORDER.matcher(text);
        return m.find() ? m.group() : null;
    }
}

package dev.effectful.core.json;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/**
 * The JSON text of the values nearly every call is made of (strings, integral numbers, booleans,
 * null), written without a Jackson generator: creating one per call (its buffer recycler is a
 * thread-local lookup, its context objects allocations) cost more than the text it wrote.
 *
 * <p>The text is exactly what Jackson's default generator writes for the same value
 * ({@code JsonTextTest} holds the two equal for every char): a string is quoted, with quotes,
 * backslashes and control characters escaped by Jackson's own encoder and every other character
 * as it is; integral numbers in decimal; {@code true}, {@code false}, {@code null}.
 */
public final class JsonText {

    /** Loaded only when a string needs escaping, so that simple values load no Jackson class. */
    private static final class Escaper {
        static final JsonStringEncoder INSTANCE = JsonStringEncoder.getInstance();
    }

    private JsonText() {
    }

    /** Appends {@code s} as a quoted JSON string. */
    public static StringBuilder appendQuoted(StringBuilder sb, String s) {
        return sb.append('"').append(escaped(s)).append('"');
    }

    /**
     * The text {@link #appendQuoted} writes for {@code s}, without the quotes: the one JSON encoding
     * of a string in the journal, so a text searched for inside JSON is searched for in this form.
     */
    public static String escaped(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                // rare: Jackson's own escaping, so its choice of escapes stays the journal's
                return new String(Escaper.INSTANCE.quoteAsString(s));
            }
        }
        return s;
    }

    /** Whether {@link #appendSimple} writes {@code value}: null, a String, an integral box or a Boolean. */
    public static boolean isSimple(Object value) {
        return value == null || value instanceof String || value instanceof Integer || value instanceof Long
                || value instanceof Short || value instanceof Byte || value instanceof Boolean;
    }

    /** Appends a value {@link #isSimple} accepts; anything else is a caller bug. */
    public static StringBuilder appendSimple(StringBuilder sb, Object value) {
        if (value == null) {
            return sb.append("null");
        }
        if (value instanceof String s) {
            return appendQuoted(sb, s);
        }
        if (value instanceof Boolean b) {
            return sb.append(b ? "true" : "false");
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return sb.append(((Number) value).longValue());
        }
        throw new IllegalArgumentException("not a simple JSON value: " + value.getClass().getName());
    }

    /** The JSON text of a value {@link #isSimple} accepts, else null. */
    public static String simple(Object value) {
        if (!isSimple(value)) {
            return null;
        }
        int hint = value instanceof String s ? s.length() + 2 : 8;
        return appendSimple(new StringBuilder(hint), value).toString();
    }
}

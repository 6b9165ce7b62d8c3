package dev.effectful.core.journal;

/**
 * What a tool declares that lets a re-entry after an unknown outcome settle without a person: a probe,
 * and whether the receiver deduplicates on the intent key ({@code keyable}). An intent record carries it
 * as its {@code reentry} word ({@code probe keyable}, {@code probe}, {@code keyable}, or {@code -} for
 * neither), which the engine writes with {@link #word()} and the CLI reads back with {@link #parse};
 * nothing else spells or splits that word.
 *
 * @param probe   the tool names a probe
 * @param keyable the tool declares {@code keyable = true}
 */
public record ReentryDeclaration(boolean probe, boolean keyable) {

    private static final String PROBE = "probe";
    private static final String KEYABLE = "keyable";
    private static final String NEITHER = "-";

    /** The {@code reentry} word of an intent record (the same four words journals have always carried). */
    public String word() {
        if (probe) {
            return keyable ? PROBE + " " + KEYABLE : PROBE;
        }
        return keyable ? KEYABLE : NEITHER;
    }

    /**
     * The declaration a {@code reentry} word stands for; null when the record carries none (a journal
     * written before the word existed). A word this reader does not know declares nothing it does not name.
     */
    public static ReentryDeclaration parse(String word) {
        if (word == null) {
            return null;
        }
        boolean probe = false;
        boolean keyable = false;
        for (String part : word.split(" ")) {
            probe |= part.equals(PROBE);
            keyable |= part.equals(KEYABLE);
        }
        return new ReentryDeclaration(probe, keyable);
    }
}

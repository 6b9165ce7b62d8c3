package dev.effectful.core.journal;

/**
 * The effect kind of a call as the journal records it: what the tool declared (`EffectKind`; docs/API.md).
 *
 * <p>Inside the process this enum is the value; on disk it is {@link #word()}, exactly the word
 * journals have always carried. Only the codecs ({@link RecordCodec}, the index snapshot) turn a
 * word back into a constant, with {@link #fromWord}. The CLI loads this class without the API's
 * classes, so it names none of them; the engine's {@code ApiWords} maps to and from the API's enums.
 */
public enum Kind implements JournalWord {
    // (whether a repeat is harmless, whether it always runs, whether it destroys). Every rule is a constructor
    // argument, so a kind cannot be added without them. Codes on disk are the places in this list, from 1
    // (JournalWord): a new kind goes last.
    READ(true, true, false), IDEMPOTENT(true, false, false), CREATE(false, false, false),
    SEND(false, false, false), MONEY(false, false, true), DESTRUCTIVE(false, false, true);

    /** Running the body again changes nothing by itself (see {@link #repeatIsHarmless()}). */
    private final boolean repeatIsHarmless;

    /** It has no effect at all (see {@link #alwaysRuns()}). */
    private final boolean alwaysRuns;

    /** Its effect may change or remove what was there, not only add to it (see {@link #destroys()}). */
    private final boolean destroys;

    private static final Kind[] VALUES = values();

    Kind(boolean repeatIsHarmless, boolean alwaysRuns, boolean destroys) {
        this.repeatIsHarmless = repeatIsHarmless;
        this.alwaysRuns = alwaysRuns;
        this.destroys = destroys;
    }

    /**
     * Whether its effect may change or remove what was there (money moved, a thing deleted or cancelled),
     * rather than only add something new (a record created, a message sent) or set a state a repeat sets
     * again. What a tool listing tells a client about a tool of this kind ({@link #toolHints()}).
     */
    public boolean destroys() {
        return destroys;
    }

    /**
     * What a tool of this kind is, in the words of a tool listing's hints (MCP's tool annotations): derived
     * from the kind's rules alone, so a new kind has its hints as soon as it has its rules. A kind that always
     * runs has no effect: read-only, and the other two hints say nothing about it (null: no claim). Every other
     * kind is not read-only, destructive when it {@link #destroys()}, idempotent when its repeat is harmless.
     */
    public ToolHints toolHints() {
        return alwaysRuns ? new ToolHints(true, null, null) : new ToolHints(false, destroys, repeatIsHarmless);
    }

    /**
     * The hints a tool listing gives for a kind; null is no claim (the author's own value, if any, stands).
     *
     * @param readOnly    the tool changes nothing
     * @param destructive the tool may change or remove what was there, not only add
     * @param idempotent  calling it again with the same arguments changes nothing more
     */
    public record ToolHints(Boolean readOnly, Boolean destructive, Boolean idempotent) {
    }

    /**
     * Whether a call of this kind has no effect to guard, so it always runs: never answered from an
     * earlier call, run (unjournaled) even when the journal cannot take its records, and a failure nobody
     * classified is retryable with effect no, since nothing could have landed. The engine, the classifier,
     * the weaver, the agent's fallback without an engine and the test kit all ask this (by the constant's
     * name, {@link #alwaysRuns(String)}, where they hold the API's {@code EffectKind}); none compares kinds itself.
     */
    public boolean alwaysRuns() {
        return alwaysRuns;
    }

    /**
     * {@link #alwaysRuns()} of the kind whose constant is named {@code constantName} ({@code "READ"}): the
     * API's {@code EffectKind.name()}, an annotation's value read from a class file, or an application's own
     * copy of the API seen through reflection, none of which is this enum. False for null or a name this
     * reader does not know. Compares names without allocating: the engine asks on every failed call.
     */
    public static boolean alwaysRuns(String constantName) {
        for (Kind k : VALUES) {
            if (k.name().equals(constantName)) {
                return k.alwaysRuns;
            }
        }
        return false;
    }

    /**
     * Whether a repeat of the body changes nothing, so an attempt whose outcome is unknown may run again
     * without a probe or a person. The engine's re-entry table, the CLI's "settles by itself" column and
     * the test kit's audit all ask this; none keeps its own list.
     */
    public boolean repeatIsHarmless() {
        return repeatIsHarmless;
    }

    /**
     * Whether an attempt of this kind whose outcome is unknown may simply run again: its repeat is
     * harmless, or it carries a key the receiver deduplicates on.
     *
     * @param keyed the tool declares {@code keyable = true} (the user's promise), or a covered client was seen
     *              sending the unknown attempt's key ({@code key_sent})
     */
    public boolean runsAgainAfterUnknown(boolean keyed) {
        return repeatIsHarmless || keyed;
    }

    /** Whether the next call settles an unknown outcome without a person: it probes first, or runs again. */
    public boolean settlesByItself(boolean keyed, boolean hasProbe) {
        return hasProbe || runsAgainAfterUnknown(keyed);
    }

    /** The constant a word on disk stands for; null for null or for a word this reader does not know. */
    public static Kind fromWord(String word) {
        return JournalWord.byWord(Kind.class, word);
    }
}

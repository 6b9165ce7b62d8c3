package dev.effectful;

/**
 * The closed outcome vocabulary of a tool call. Each value has exactly one meaning for the caller.
 */
public enum Status {
    /** The call completed and its effect, if any, landed. Continue. */
    OK,
    /** The call did not complete for a reason likely to change. Retry only with the same intent. */
    RETRYABLE,
    /** Retrying the same call gives the same answer: change something or ask a person. */
    PERMANENT,
    /** Nobody can tell whether the effect landed. Resolve by reading the world, never by retrying. */
    UNKNOWN;

    /** The lower-case word used in JSON and in the journal. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Parses a {@link #word()}, case-insensitively. */
    public static Status ofWord(String word) {
        return valueOf(word.toUpperCase(java.util.Locale.ROOT));
    }
}

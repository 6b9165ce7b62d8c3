package dev.effectful;

/**
 * Whether a call's effect landed, reported separately from {@link Status} on purpose: a timeout on
 * a POST may have applied everything, a 200 that says "queued" has applied nothing yet.
 */
public enum EffectApplied {
    /** The effect landed. */
    YES,
    /** Nothing changed. */
    NO,
    /** Some items of a batch landed and some did not. */
    PARTIAL,
    /** Nobody can tell. */
    UNKNOWN;

    /** The lower-case word used in JSON and in the journal. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Parses a {@link #word()}, case-insensitively. */
    public static EffectApplied ofWord(String word) {
        return valueOf(word.toUpperCase(java.util.Locale.ROOT));
    }
}

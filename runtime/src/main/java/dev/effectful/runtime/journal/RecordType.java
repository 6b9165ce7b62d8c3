package dev.effectful.runtime.journal;

import java.util.Locale;

/** The kinds of journal record. A closed set: readers reject nothing, but only these are written. */
public enum RecordType {
    /** Written before a body runs: the intent to act. */
    INTENT,
    /** Written after a body returned or threw. */
    OUTCOME,
    /** A probe looked for the effect of an earlier attempt: found, absent or failed. */
    PROBE,
    /** A repeat of a known-ok intent was answered from the journal; no body ran. */
    DEDUP,
    /** A person's verdict on an unknown intent (CLI {@code resolve}). */
    RESOLUTION,
    /** A call was refused without running (held unknown, Retry-After not passed). */
    REFUSED;

    /** The word on disk, computed once: a record is written on every call. */
    private final String word = name().toLowerCase(Locale.ROOT);

    public String word() {
        return word;
    }

    /** Empty when the word is not one of ours (a newer writer, or damage). */
    public static java.util.Optional<RecordType> ofWord(String word) {
        if (word == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.ofNullable(switch (word) {
            case "intent" -> INTENT;
            case "outcome" -> OUTCOME;
            case "probe" -> PROBE;
            case "dedup" -> DEDUP;
            case "resolution" -> RESOLUTION;
            case "refused" -> REFUSED;
            default -> null;
        });
    }
}

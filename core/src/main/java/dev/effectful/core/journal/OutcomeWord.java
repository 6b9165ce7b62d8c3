package dev.effectful.core.journal;

import java.util.Locale;

/**
 * How a call ended, as an outcome record (and a probe that settled an intent) says it.
 *
 * <p>Inside the process this enum is the value; on disk it is {@link #word()}, exactly the word
 * journals have always carried. Only the codecs ({@link RecordCodec}, the index snapshot) turn a
 * word back into a constant, with {@link #fromWord}. The CLI loads this class without the API's
 * classes, so it names none of them; the engine's {@code ApiWords} maps to and from the API's enums.
 */
public enum OutcomeWord implements JournalWord {
    OK(1), RETRYABLE(2), PERMANENT(3), UNKNOWN(4);

    /** The word on disk, computed once: a record is written on every call. */
    private final String word = name().toLowerCase(Locale.ROOT);
    /** Its one-byte code on disk: part of the journal format, never renumbered (see {@code Codes}). */
    private final int code;

    private static final OutcomeWord[] VALUES = values();

    OutcomeWord(int code) {
        this.code = code;
    }

    @Override
    public int code() {
        return code;
    }

    @Override
    public String word() {
        return word;
    }

    /** The constant a word on disk stands for; null for null or for a word this reader does not know. */
    public static OutcomeWord fromWord(String word) {
        return JournalWord.byWord(VALUES, word);
    }
}

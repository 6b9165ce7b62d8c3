package dev.effectful.core.journal;

import java.util.Locale;

/**
 * Whether a call's effect was applied, as outcome, probe and resolution records say it.
 *
 * <p>Inside the process this enum is the value; on disk it is {@link #word()}, exactly the word
 * journals have always carried. Only the codecs ({@link RecordCodec}, the index snapshot) turn a
 * word back into a constant, with {@link #fromWord}. The CLI loads this class without the API's
 * classes, so it names none of them; the engine's {@code ApiWords} maps to and from the API's enums.
 */
public enum Effect implements JournalWord {
    YES(1), NO(2), PARTIAL(3), UNKNOWN(4);

    /** The word on disk, computed once: a record is written on every call. */
    private final String word = name().toLowerCase(Locale.ROOT);
    /** Its one-byte code on disk: part of the journal format, never renumbered (see {@code Codes}). */
    private final int code;

    private static final Effect[] VALUES = values();

    Effect(int code) {
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
    public static Effect fromWord(String word) {
        return JournalWord.byWord(VALUES, word);
    }
}

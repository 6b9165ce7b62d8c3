package dev.effectful.core.journal;

/**
 * Whether a call's effect was applied, as outcome, probe and resolution records say it.
 *
 * <p>Inside the process this enum is the value; on disk it is {@link #word()}, exactly the word
 * journals have always carried. Only the codecs ({@link RecordCodec}, the index snapshot) turn a
 * word back into a constant, with {@link #fromWord}. The CLI loads this class without the API's
 * classes, so it names none of them; the engine's {@code ApiWords} maps to and from the API's enums.
 */
public enum Effect implements JournalWord {
    // codes on disk are the places in this list, from 1 (JournalWord): a new constant goes last
    YES, NO, PARTIAL, UNKNOWN;

    /** The constant a word on disk stands for; null for null or for a word this reader does not know. */
    public static Effect fromWord(String word) {
        return JournalWord.byWord(Effect.class, word);
    }
}

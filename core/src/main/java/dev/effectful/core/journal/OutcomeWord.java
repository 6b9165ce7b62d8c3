package dev.effectful.core.journal;

/**
 * How a call ended, as an outcome record (and a probe that settled an intent) says it.
 *
 * <p>Inside the process this enum is the value; on disk it is {@link #word()}, exactly the word
 * journals have always carried. Only the codecs ({@link RecordCodec}, the index snapshot) turn a
 * word back into a constant, with {@link #fromWord}. The CLI loads this class without the API's
 * classes, so it names none of them; the engine's {@code ApiWords} maps to and from the API's enums.
 */
public enum OutcomeWord implements JournalWord {
    // codes on disk are the places in this list, from 1 (JournalWord): a new constant goes last
    OK, RETRYABLE, PERMANENT, UNKNOWN;

    /** The constant a word on disk stands for; null for null or for a word this reader does not know. */
    public static OutcomeWord fromWord(String word) {
        return JournalWord.byWord(OutcomeWord.class, word);
    }
}

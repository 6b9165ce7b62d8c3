package dev.effectful.core.journal;

/**
 * What a probe found about an earlier attempt: its effect, nothing, or no answer (it failed).
 *
 * <p>Inside the process this enum is the value; on disk it is {@link #word()}, exactly the word
 * journals have always carried. Only the codecs ({@link RecordCodec}, the index snapshot) turn a
 * word back into a constant, with {@link #fromWord}. The CLI loads this class without the API's
 * classes, so it names none of them; the engine's {@code ApiWords} maps to and from the API's enums.
 */
public enum ProbeResult implements JournalWord {
    // codes on disk are the places in this list, from 1 (JournalWord): a new constant goes last
    FOUND, ABSENT, FAILED;

    /** The constant a word on disk stands for; null for null or for a word this reader does not know. */
    public static ProbeResult fromWord(String word) {
        return JournalWord.byWord(ProbeResult.class, word);
    }
}

package dev.effectful.runtime.journal;

/** The journal cannot take a record; the message names the directory and the cause. */
public class JournalUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public JournalUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public JournalUnavailableException(String message) {
        super(message);
    }
}

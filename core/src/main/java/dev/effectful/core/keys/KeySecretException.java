package dev.effectful.core.keys;

/**
 * An intent key needs a {@code @Redact} value's fingerprint, and the journal's secret is not the one
 * its keys were made with (missing, replaced, or not the fleet's): the call is refused permanent,
 * with this message naming the file and the fix.
 */
public final class KeySecretException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean retryable;

    public KeySecretException(String message) {
        this(message, false);
    }

    /** @param retryable true when waiting helps (the fleet's key could not be fetched yet) */
    public KeySecretException(String message, boolean retryable) {
        super(message, null, false, false);
        this.retryable = retryable;
    }

    /** Whether the refusal passes by itself (retryable) or needs a person (permanent). */
    public boolean retryable() {
        return retryable;
    }
}

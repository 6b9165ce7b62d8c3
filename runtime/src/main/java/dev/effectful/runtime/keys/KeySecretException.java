package dev.effectful.runtime.keys;

/**
 * An intent key needs a {@code @Redact} value's fingerprint, and the journal's secret is not the one
 * its keys were made with (missing, replaced, or not the fleet's): the call is refused permanent,
 * with this message naming the file and the fix.
 */
public final class KeySecretException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KeySecretException(String message) {
        super(message, null, false, false);
    }
}

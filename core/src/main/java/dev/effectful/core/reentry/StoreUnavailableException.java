package dev.effectful.core.reentry;

/**
 * The shared intent store could not answer in time (down, slow, unreachable). An effectful call
 * is then refused (retryable, effect no): running it without a claim could repeat an effect.
 */
public final class StoreUnavailableException extends RuntimeException {

    private final boolean misconfigured;

    public StoreUnavailableException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /**
     * @param misconfigured the store answered, and refused this host's settings (wrong password,
     *     unknown user or database): no retry can succeed until someone fixes the configuration
     */
    public StoreUnavailableException(String message, Throwable cause, boolean misconfigured) {
        super(message, cause);
        this.misconfigured = misconfigured;
    }

    /** Whether waiting cannot help: the call's refusal is permanent, not retryable. */
    public boolean misconfigured() {
        return misconfigured;
    }
}

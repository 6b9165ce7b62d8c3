package dev.effectful.runtime.reentry;

/**
 * The shared intent store could not answer in time (down, slow, unreachable). An effectful call
 * is then refused (retryable, effect no): running it without a claim could repeat an effect.
 */
public final class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

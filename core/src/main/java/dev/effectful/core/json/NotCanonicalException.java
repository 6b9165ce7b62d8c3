package dev.effectful.core.json;

/**
 * A value has no deterministic JSON rendering, so it cannot be part of an intent key: two calls
 * meaning the same thing could hash differently, or two different things the same.
 *
 * <p>Checked on purpose: the caller must decide how to refuse the call rather than key it wrongly.
 */
public final class NotCanonicalException extends Exception {

    private static final long serialVersionUID = 1L;

    public NotCanonicalException(String message) {
        super(message);
    }

    public NotCanonicalException(String message, Throwable cause) {
        super(message, cause);
    }
}

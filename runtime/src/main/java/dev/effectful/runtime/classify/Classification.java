package dev.effectful.runtime.classify;

import dev.effectful.EffectApplied;
import dev.effectful.Status;
import java.util.Objects;

/**
 * What a failure means: a closed status, whether its effect landed, how long the service asked us
 * to wait, and a one-line message meant for both the model and a person.
 *
 * @param status      retryable, permanent or unknown (ok only when a tool threw an ok outcome itself)
 * @param effect      whether the effect landed
 * @param retryAfterS seconds the service asked to wait ({@code Retry-After}); null when it did not say
 * @param message     one line, no stack trace, capped in length
 */
public record Classification(Status status, EffectApplied effect, Long retryAfterS, String message) {

    /** Validates the required parts. */
    public Classification {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(effect, "effect");
        Objects.requireNonNull(message, "message");
    }
}

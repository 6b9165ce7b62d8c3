package dev.effectful.runtime.engine;

import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;
import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.tool.ToolMethod;

/**
 * Turns an outcome into what the caller receives. Success is the method's own value, untouched;
 * failure is an {@code Outcome} for methods that return one, the JSON text for String tools under
 * {@code effectful.failure=json}, and otherwise a {@link ToolOutcomeException} whose message is
 * that JSON, so agent frameworks hand the model exactly the outcome. A checked exception from the
 * body never escapes as itself.
 */
final class OutcomeShaper {

    private final EffectfulConfig.Failure failureMode;

    OutcomeShaper(EffectfulConfig.Failure failureMode) {
        this.failureMode = failureMode;
    }

    /** A success with the value the caller should see. */
    Completion ok(ToolMethod tool, Outcome<?> outcome, Object value) {
        if (tool.returnsOutcome()) {
            return new Completion(outcome, null);
        }
        return new Completion(value == null ? tool.emptyReturn() : value, null);
    }

    /** A success whose value cannot be given back (not stored, or resolved by a person). */
    Completion okWithoutValue(ToolMethod tool, Outcome<?> outcome) {
        if (tool.returnsOutcome()) {
            return new Completion(outcome, null);
        }
        if (tool.returnsVoid()) {
            return new Completion(null, null);
        }
        if (tool.returnsString()) {
            return new Completion(outcome.toJson(), null);
        }
        return new Completion(tool.emptyReturn(), new ToolOutcomeException(outcome));
    }

    Completion failure(ToolMethod tool, Outcome<?> outcome, Throwable cause) {
        if (tool.returnsOutcome()) {
            return new Completion(outcome, null);
        }
        if (tool.returnsString() && failureMode == EffectfulConfig.Failure.JSON) {
            return new Completion(outcome.toJson(), null);
        }
        return new Completion(tool.emptyReturn(), new ToolOutcomeException(outcome, cause));
    }
}

package dev.effectful.runtime.engine;

import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.runtime.tool.ToolMethod;

/**
 * Turns an outcome into what the caller receives. Success is the method's own value, untouched;
 * failure is an {@code Outcome} for methods that return one, the JSON text for String tools under
 * {@code effectful.failure=json}, and otherwise a {@link ToolOutcomeException} whose message is
 * that JSON, so agent frameworks hand the model exactly the outcome. A checked exception from the
 * body never escapes as itself. Every outcome leaves through here, so here it passes the call's
 * {@link Redactor}: the value of a success is the caller's own and stays untouched.
 */
final class OutcomeShaper {

    private final EffectfulConfig.Failure failureMode;

    OutcomeShaper(EffectfulConfig.Failure failureMode) {
        this.failureMode = failureMode;
    }

    /** A success with the value the caller should see. */
    Completion ok(Call call, Outcome<?> outcome, Object value) {
        ToolMethod tool = call.tool;
        if (tool.returnsOutcome()) {
            return new Completion(call.redactor().outcome(outcome), null);
        }
        return new Completion(value == null ? tool.emptyReturn() : value, null);
    }

    /** A success whose value cannot be given back (not stored, or resolved by a person). */
    Completion okWithoutValue(Call call, Outcome<?> answer) {
        ToolMethod tool = call.tool;
        Outcome<?> outcome = call.redactor().outcome(answer);
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

    /** Every text in it (message, item reasons, the cause chain's messages) passes the call's redaction. */
    Completion failure(Call call, Outcome<?> answer, Throwable thrown) {
        ToolMethod tool = call.tool;
        Outcome<?> outcome = call.redactor().outcome(answer);
        Throwable cause = call.redactor().throwable(thrown);
        if (tool.returnsOutcome()) {
            return new Completion(outcome, null);
        }
        if (tool.returnsString() && failureMode == EffectfulConfig.Failure.JSON) {
            return new Completion(outcome.toJson(), null);
        }
        return new Completion(tool.emptyReturn(), new ToolOutcomeException(outcome, cause));
    }
}

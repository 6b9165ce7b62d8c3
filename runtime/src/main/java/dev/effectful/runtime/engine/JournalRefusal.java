package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.core.journal.JournalProblem;

import java.util.List;

/**
 * Where a journal problem becomes a caller's outcome. The core module names its causes without
 * the API ({@link JournalProblem.Cause#permanent()}); this is the engine's side of that line.
 */
public final class JournalRefusal {

    private JournalRefusal() {
    }

    /** The outcome's status for this problem: a cause a retry cannot fix is permanent. */
    public static Status status(JournalProblem problem) {
        return problem.cause().permanent() ? Status.PERMANENT : Status.RETRYABLE;
    }

    /** What a refused effectful call receives: nothing was done, so the effect is always no. */
    public static <T> Outcome<T> outcome(JournalProblem problem) {
        return new Outcome<>(status(problem), EffectApplied.NO, null, null, problem.retryAfterS(), null,
                problem.message() + "; the call was not made", null, List.of());
    }
}

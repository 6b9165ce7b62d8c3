package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.core.journal.RecordType;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one way a call is answered without its body for a reason other than a known result: a
 * {@code refused} record (once the intent key is known), the log line, and the failure the caller
 * gets. Concurrent calls of the same intent get the same refusal.
 *
 * <p>A record of its collaborators: it keeps no state of its own.
 */
record Refusals(CallRecords records, OutcomeShaper shaper, InFlightCalls inFlight) {

    /** Refuses {@code call}; {@code deadline_left_s} is what is left of its task's budget. */
    void refuse(Call call, Status status, EffectApplied effect, Long retryAfterS, String message) {
        refuse(call, status, effect, retryAfterS, call.task() == null ? null : call.task().leftSeconds(), message);
    }

    /** Refuses {@code call} because its task's budget is spent: {@code deadline_left_s} 0, whatever is left. */
    void refuseOutOfBudget(Call call, Status status, EffectApplied effect, String message) {
        refuse(call, status, effect, null, 0L, message);
    }

    private void refuse(Call call, Status status, EffectApplied effect, Long retryAfterS, Long deadlineLeft,
                        String message) {
        Outcome<Object> o = new Outcome<>(status, effect, null, call.intentKey(), retryAfterS, deadlineLeft, message, null,
                List.of());
        if (call.intentKey() != null && status != Status.OK) {
            records.appendQuietly(records.base(call, RecordType.REFUSED).started(System.currentTimeMillis())
                    .outcome(ApiWords.outcome(status)).effectApplied(ApiWords.effect(effect)).retryAfterS(retryAfterS)
                    .deadlineLeftS(deadlineLeft).message(message).build());
        }
        records.events().refused(call, status, effect, retryAfterS, deadlineLeft);
        inFlight.finish(call, shaper.failure(call, o, null));
    }

    /** A Retry-After the task cannot wait out: say so, so the model stops instead of waiting or looping. */
    static String beyondBudget(TaskContext task, Long retryAfterS) {
        if (retryAfterS == null || !task.hasBudget()) {
            return "";
        }
        long left = task.leftNanos();
        if (TimeUnit.SECONDS.toNanos(retryAfterS) < left) {
            return "";
        }
        return "; the task has " + TimeUnit.NANOSECONDS.toSeconds(left) + " s left, less than that wait: stop and"
                + " report to the user";
    }
}

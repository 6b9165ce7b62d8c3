package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;
import dev.effectful.runtime.events.CallEvent;
import dev.effectful.runtime.events.Events;
import dev.effectful.runtime.events.Reentry;
import dev.effectful.runtime.events.Step;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.log.AgentLog;

/**
 * Turns a call's steps into {@link CallEvent}s, at the places the stages write its records. A call
 * no sink was interested in at its entry ({@link Call#trace} null) costs one field read per step.
 * Only names, words and numbers go in: no argument, result or message, so nothing redacted.
 */
final class CallEvents {

    private final Events events;

    CallEvents(Events events) {
        this.events = events;
    }

    /**
     * At the call's entry: a trace when some sink wants this tool's calls. The application's log is looked
     * for first, from the tool's loader: the call's own lines (and any kept before) go there when it is found.
     */
    void begin(Call call) {
        Class<?> toolClass = call.tool.method().getDeclaringClass();
        AgentLog.lookForApplicationLog(toolClass);
        call.traced(events.begin(toolClass, call.tool.verb()));
    }

    /** The intent is written; the body runs next. */
    void intent(Call call) {
        if (call.trace() != null) {
            emit(call, Step.INTENT, null, null, null, call.task().leftSeconds(), 0, null, null, false, false);
        }
    }

    /** The body ran and was classified as {@code outcome}; {@code cause} is what it threw, if anything. */
    void outcome(Call call, Outcome<?> outcome, long durationNanos, Throwable cause) {
        if (call.trace() != null) {
            emit(call, Step.OUTCOME, outcome.status(), outcome.effectApplied(), outcome.retryAfterS(),
                    call.task().leftSeconds(), durationNanos, errorType(outcome.status(), cause), null, false, true);
        }
    }

    /** Answered ok from what was already known; {@code byPerson}: from a person's verdict. */
    void dedup(Call call, boolean byPerson) {
        if (call.trace() != null) {
            call.tookPath(Reentry.DEDUP);
            emit(call, Step.DEDUP, Status.OK, EffectApplied.YES, null, call.task().leftSeconds(), 0, null, null, byPerson,
                    true);
        }
    }

    /** Answered with what the concurrent call of the same intent got, ok or not. */
    void answeredByConcurrent(Call call, Completion c) {
        if (call.trace() == null) {
            return;
        }
        call.tookPath(Reentry.DEDUP);
        Outcome<?> o = c.thrown() instanceof ToolOutcomeException toe ? toe.outcome()
                : c.value() instanceof Outcome<?> v ? v : null;
        Status status = o != null ? o.status() : c.thrown() == null ? Status.OK : Status.UNKNOWN;
        EffectApplied effect = o != null ? o.effectApplied() : c.thrown() == null ? EffectApplied.YES
                : EffectApplied.UNKNOWN;
        emit(call, Step.DEDUP, status, effect, o == null ? null : o.retryAfterS(), call.task().leftSeconds(), 0,
                errorType(status, null), null, false, true);
    }

    /** The probe of attempt {@code probed} answered {@code word}; {@code last}: it settled the call. */
    void probe(Call call, int probed, ProbeResult word, long durationNanos) {
        if (call.trace() == null) {
            return;
        }
        call.tookPath(Reentry.PROBE);
        boolean found = word == ProbeResult.FOUND;
        int attempt = call.attempt();
        call.nameAttempt(probed); // the event names the attempt the probe looked for
        emit(call, Step.PROBE, found ? Status.OK : null, found ? EffectApplied.YES : null, null,
                call.task().leftSeconds(), durationNanos, null, word.word(), false, found);
        call.nameAttempt(attempt);
    }

    /** The call is about to be refused because its intent waits for a person's approval: reported as such. */
    void awaitingApproval(Call call) {
        call.tookPath(Reentry.APPROVAL);
    }

    /** Not run: refused, or held for a person when its effect is unknown. */
    void refused(Call call, Status status, EffectApplied effect, Long retryAfterS, Long deadlineLeftS) {
        if (call.trace() == null) {
            return;
        }
        boolean held = status == Status.UNKNOWN; // a failed probe too: its PROBE event came first
        call.tookPath(call.reentry() == Reentry.APPROVAL ? Reentry.APPROVAL : held ? Reentry.HELD : Reentry.REFUSED);
        emit(call, held ? Step.HELD : Step.REFUSED, status, effect, retryAfterS, deadlineLeftS, 0,
                errorType(status, null), null, false, true);
    }

    /** The engine failed inside before the call's last event. */
    void abandon(Call call) {
        events.abandon(call.trace());
    }

    private static String errorType(Status status, Throwable cause) {
        if (status == Status.OK) {
            return null;
        }
        return cause != null ? Outcomes.unwrap(cause).getClass().getName() : status.word();
    }

    private void emit(Call call, Step step, Status status, EffectApplied effect, Long retryAfterS, Long deadlineLeftS,
                      long durationNanos, String errorType, String probe, boolean byPerson, boolean last) {
        TaskContext task = call.task();
        events.emit(new CallEvent(step, call.trace(), task == null ? null : task.id(),
                task == null ? "" : task.actor(), call.tool.verb(), call.tool.kindWord(), call.intentKey(), call.attempt(),
                call.attemptId(), call.reentry(), status == null ? null : status.word(),
                effect == null ? null : effect.word(), retryAfterS, deadlineLeftS, durationNanos, errorType, probe,
                byPerson, last));
    }
}

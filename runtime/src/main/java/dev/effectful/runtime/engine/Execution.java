package dev.effectful.runtime.engine;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.AttemptIds;
import dev.effectful.Attempt;
import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.runtime.deadline.Interrupter;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.JournalUnavailableException;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.ResolveHint;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.core.values.ArgsRenderer;

import java.util.concurrent.TimeUnit;

/**
 * The second stage: what runs for an admitted call. Either the declared probe (when the last
 * attempt's effect is unknown), whose answer settles the call or lets it go on; or the body:
 * its intent is journaled first (an effectful call whose intent cannot be written is refused),
 * then it runs as the current {@link Attempt} under an alarm at min(task deadline, timeout).
 */
final class Execution {

    private final CallRecords records;
    private final IntentStore store;
    private final ArgsRenderer argsRenderer;
    private final Refusals refusals;
    private final Replays replays;
    private final ProbeRunner probes;
    private final OutcomeShaper shaper;
    private final InFlightCalls inFlight;
    private final ResolveHint hint;
    private final Interrupter interrupter = new Interrupter();

    /** The deadline watchdog's owner: the engine closes it. */
    Interrupter interrupter() {
        return interrupter;
    }

    Execution(Shared shared, ProbeRunner probes, OutcomeShaper shaper) {
        this.records = shared.records();
        this.store = shared.store();
        this.argsRenderer = shared.argsRenderer();
        this.refusals = shared.refusals();
        this.replays = shared.replays();
        this.inFlight = shared.inFlight();
        this.hint = shared.hint();
        this.probes = probes;
        this.shaper = shaper;
    }

    /** Writes the intent of attempt {@code attempt}; then the body may run, under its deadline. */
    void startAttempt(Call call, int attempt) {
        call.started(attempt, AttemptIds.of(call.task().id(), call.intentKey(), attempt));
        JournalRecord intent = records.base(call, RecordType.INTENT)
                .attempt(attempt).attemptId(call.attemptId()).started(call.startedMillis()).reentry(KeyHeaders.reentryWord(call.tool))
                // rendered only here: a deduplicated or refused call never needs its arguments as JSON
                .budgetLeftS(call.task().leftSeconds()).args(argsRenderer.render(call.args, call.tool.params())).build();
        try {
            records.appendIntent(intent);
            call.markJournaled();
        } catch (JournalUnavailableException e) {
            if (!call.tool.isRead()) {
                store.abandon(call.intentKey(), attempt);
                // the cause decides: a journal that is misplaced or damaged is permanent, a full disk passes
                refusals.refuse(call, JournalRefusal.status(e.problem()), EffectApplied.NO, e.retryAfterS(), e.getMessage()
                        + "; the call was not made");
                return;
            }
            AgentLog.warnOnce("read-unjournaled", "READ calls run unjournaled while " + e.getMessage());
        }
        Attempt current = new Attempt(call.intentKey(), attempt, call.attemptId());
        call.bindAttempt(KeyHeaders.bind(call.tool, current, null, current.makeCurrent(),
                key -> records.appendKeySent(call, key, attempt, call.attemptId(), null)));
        armDeadline(call);
        records.events().intent(call);
    }

    /** Interrupts the calling thread at min(task deadline, per-attempt timeout): cancel, don't orphan. */
    void armDeadline(Call call) {
        long cap = call.task().leftNanos();
        if (call.tool.timeoutMillis() > 0) {
            cap = Math.min(cap, TimeUnit.MILLISECONDS.toNanos(call.tool.timeoutMillis()));
        }
        if (cap != Long.MAX_VALUE) {
            call.arm(interrupter.arm(Thread.currentThread(), cap));
        }
    }

    /** Attempt {@code lastAttempt} may have applied: measure before anything runs again. */
    void probeThenDecide(Call call, int lastAttempt) {
        ToolMethod tool = call.tool;
        long started = System.currentTimeMillis();
        long startedNanos = System.nanoTime();
        ProbeRunner.Result r = probes.run(tool, call.self, call.args);
        records.events().probe(call, lastAttempt, r.word(), System.nanoTime() - startedNanos);
        JournalRecord.Builder rec = records.base(call, RecordType.PROBE).attempt(lastAttempt).started(started)
                .durationMs(System.currentTimeMillis() - started).probe(r.word());
        switch (r.word()) {
            case FOUND -> {
                if (!r.hasValue()) {
                    foundWithoutValue(call, rec);
                    return;
                }
                rec.outcome(OutcomeWord.OK).effectApplied(Effect.YES).result(r.json()).message(r.message());
                records.appendAndApply(rec.build());
                if (r.json() != null && Redactor.heldSecret(call.redactor().result(r.json()))) {
                    call.answerWaitersWith(replays.heldSecretAnswer(call));
                }
                Outcome<Object> ok = Outcomes.withValue(Outcomes.of(call, Status.OK, EffectApplied.YES, null, null,
                        "an earlier attempt had applied: the probe found it"), r.value());
                inFlight.finish(call, shaper.ok(call, ok, r.value()));
            }
            case ABSENT -> {
                records.appendAndApply(rec.build());
                startAttempt(call, lastAttempt + 1);
            }
            default -> {
                rec.outcome(OutcomeWord.UNKNOWN).effectApplied(Effect.UNKNOWN).message(r.message());
                records.appendAndApply(rec.build());
                refusals.refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, "attempt " + lastAttempt
                        + " may have applied and the probe failed (" + r.message() + "): not run again; retry later (the"
                        + " next call probes again) or tell the user a person is checking it"
                        + (hint.operatorInAnswer() ? "; " + hint.sentence(call.intentKey()) : ""));
            }
        }
    }

    /** A probe that says only "applied" (true, or any value for a void tool): answered like a dedup without a stored result. */
    private void foundWithoutValue(Call call, JournalRecord.Builder rec) {
        Outcome<Object> noValue = Outcomes.okWithoutValue(call, "already done: an earlier attempt had applied (the"
                + " probe found it); the original result was not stored (" + ProbeRunner.NO_VALUE + ")");
        records.appendAndApply(rec.outcome(OutcomeWord.OK).effectApplied(Effect.YES).message(noValue.message()).build());
        inFlight.finish(call, shaper.okWithoutValue(call, noValue));
    }
}

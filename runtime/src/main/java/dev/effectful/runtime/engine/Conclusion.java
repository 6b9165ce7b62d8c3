package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;
import dev.effectful.runtime.classify.Classification;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.RecordType;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.core.values.ResultCodec;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.TimeUnit;

/**
 * The third stage, after the body: classify what happened (the deadline's alarm, the exception, the
 * tool's {@code check}, its own {@code Outcome}, a returned HTTP response), encode an ok result for
 * repeats (redacted, or not stored), write the outcome record, and shape what the caller gets.
 */
final class Conclusion {

    private final CallSteps steps;
    private final ResultCodec results;
    private final Replays replays;
    /** Null without a local journal: no person's verdict can be handed over then. */
    private final ResolutionRequests resolutions;
    private final BatchProtocol batches;
    private final HeldIntents held;

    Conclusion(CallSteps steps, ResultCodec results, Replays replays, ResolutionRequests resolutions,
               BatchProtocol batches, HeldIntents held) {
        this.held = held;
        this.steps = steps;
        this.results = results;
        this.replays = replays;
        this.resolutions = resolutions;
        this.batches = batches;
    }

    Completion conclude(Call call, Object returned, Throwable thrown) {
        ToolMethod tool = call.tool;
        if (call.attemptScope() != null) {
            call.attemptScope().close();
            if (call.attemptScope() instanceof KeyHeaders.Binding b) {
                KeyHeaders.attemptEnded(b, thrown != null);
            }
        }
        boolean timedOut = call.alarm() != null && call.alarm().disarm();
        if (call.items() != null) {
            return batches.conclude(call, returned, thrown, timedOut);
        }
        return concludeSettled(call, returned, thrown, timedOut);
    }

    /**
     * The outcome of a call whose work is over and whose thread-bound state (the attempt, the alarm)
     * is already released: an async tool's promise settles on another thread, after its body returned.
     */
    Completion concludeSettled(Call call, Object returned, Throwable thrown, boolean timedOut) {
        ToolMethod tool = call.tool;
        long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - call.startNanos());

        Outcome<Object> outcome;
        Throwable cause = thrown;
        if (thrown != null) {
            outcome = fromThrown(call, thrown, timedOut, durationMs);
        } else {
            Throwable checkFailure = checkReturned(tool, call.self, returned);
            if (checkFailure != null) {
                cause = checkFailure;
                outcome = fromThrown(call, checkFailure, false, durationMs);
            } else if (returned instanceof Outcome<?> own && tool.returnsOutcome()) {
                outcome = Outcomes.fill(call, own);
            } else {
                Classification c = steps.classifier(call).classifyReturned(returned, tool.kind()).orElse(null);
                outcome = c == null ? Outcomes.of(call, Status.OK, EffectApplied.YES, null, null, null)
                        : Outcomes.of(call, c.status(), c.effect(), c.retryAfterS(), null, c.message());
            }
        }

        String beyond = outcome.status() == Status.RETRYABLE ? Refusals.beyondBudget(call.task(), outcome.retryAfterS()) : "";
        if (!beyond.isEmpty()) {
            outcome = new Outcome<>(outcome.status(), outcome.effectApplied(), outcome.attemptId(), outcome.intentKey(),
                    outcome.retryAfterS(), outcome.deadlineLeftS(),
                    (outcome.message() == null ? "retry later" : outcome.message()) + beyond, outcome.value(),
                    outcome.items());
        }
        String resultJson = null;
        String message = outcome.message();
        if (outcome.status() == Status.OK) {
            Object toStore = returned instanceof Outcome<?> o && tool.returnsOutcome() ? o.value() : returned;
            ResultCodec.Encoded enc = results.encode(toStore);
            resultJson = enc.json();
            if (enc.problem() != null) {
                message = "result not stored: " + enc.problem();
            } else if (call.redactor().active() && resultJson != null) {
                String redacted = call.redactor().result(resultJson);
                if (!redacted.equals(resultJson)) {
                    resultJson = redacted;
                    message = "result stored with its redacted values replaced: a repeat answers without it";
                    call.answerWaitersWith(replays.heldSecretAnswer(call));
                }
            }
        }
        CallRecords records = steps.records();
        JournalRecord rec = records.base(call, RecordType.OUTCOME).attempt(call.attempt()).attemptId(call.attemptId())
                .started(call.startedMillis()).outcome(ApiWords.outcome(outcome.status()))
                .effectApplied(ApiWords.effect(outcome.effectApplied())).retryAfterS(outcome.retryAfterS())
                .deadlineLeftS(call.task().leftSeconds()).message(message).result(resultJson).durationMs(durationMs)
                .build();
        if (call.isJournaled()) {
            records.appendAndApply(rec);
        }
        if (resolutions != null && outcome.status() == Status.UNKNOWN) {
            resolutions.remember(call.intentKey(), tool); // so a person's --result can be checked against its type
        }
        records.events().outcome(call, outcome, System.nanoTime() - call.startNanos(), cause);
        if (outcome.status() == Status.UNKNOWN && call.isJournaled()) {
            // said now, after the attempt's own line, not only when the model repeats the call
            held.afterUnknown(call, keySent(call));
        }

        if (outcome.status() == Status.OK) {
            Object value = returned instanceof Outcome<?> o && tool.returnsOutcome() ? o.value() : returned;
            return steps.shaper().ok(call, outcome, value);
        }
        return steps.shaper().failure(call, outcome, Outcomes.unwrap(cause));
    }

    /** Whether a covered client was seen sending this attempt's key: the service deduplicates a repeat then. */
    private boolean keySent(Call call) {
        try {
            return steps.store().get(call.intentKey()).map(s -> s.keySent()).orElse(false);
        } catch (RuntimeException e) {
            return false; // not known: the line may then name a hold a repeat would not make
        }
    }

    private Outcome<Object> fromThrown(Call call, Throwable thrown, boolean timedOut, long durationMs) {
        EffectKind kind = call.tool.kind();
        if (timedOut) {
            boolean read = Kind.alwaysRuns(kind.name());
            return Outcomes.of(call, read ? Status.RETRYABLE : Status.UNKNOWN, read ? EffectApplied.NO : EffectApplied.UNKNOWN,
                    null, null, "deadline reached after " + durationMs + " ms and the call was interrupted"
                            + (read ? "" : "; the effect may still land: do not retry, probe or ask"));
        }
        Throwable t = Outcomes.unwrap(thrown);
        if (t instanceof ToolOutcomeException toe) {
            return Outcomes.fill(call, toe.outcome());
        }
        Classification c = steps.classifier(call).classify(t, kind, call.tool.overrides());
        return Outcomes.of(call, c.status(), c.effect(), c.retryAfterS(), null, c.message());
    }

    /** The tool's {@code check} on a returned value: what it threw, or null when it passed (or cannot run). */
    private static Throwable checkReturned(ToolMethod tool, Object self, Object returned) {
        if (tool.check().isEmpty()) {
            return null;
        }
        try {
            tool.check().get().invoke(self, returned);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (IllegalAccessException | IllegalArgumentException | NullPointerException e) {
            return null;
        }
    }
}

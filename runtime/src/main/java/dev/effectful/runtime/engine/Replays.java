package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.ResolveHint;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.core.values.ResultCodec;

import java.util.List;

/**
 * The answer to a repeat of an intent known to have applied, without running the body: the stored
 * result read back as the method's type, a person's resolution (with the value they gave, if any),
 * or ok without a value saying why there is none (not stored, held a {@code @Redact} secret). Each
 * writes a {@code dedup} record.
 */
final class Replays {

    /** Why a repeat does not get a result that quoted a {@code @Redact} secret: what is stored is not the original. */
    static final String HELD_SECRET = "it held a redacted value";

    private static final int MAX_MIRRORED = 10_000;

    private final CallRecords records;
    /** Keys whose shared verdict this process has written to its journal already. */
    private final java.util.Set<String> mirrored = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final ResultCodec results;
    private final OutcomeShaper shaper;
    private final InFlightCalls inFlight;
    /** The paste-ready resolve command a person's unreadable result names. */
    private final ResolveHint hint;

    Replays(CallRecords records, ResultCodec results, OutcomeShaper shaper, InFlightCalls inFlight, ResolveHint hint) {
        this.records = records;
        this.results = results;
        this.shaper = shaper;
        this.inFlight = inFlight;
        this.hint = hint;
    }

    void replay(Call call, Decision.Replay replay) {
        ToolMethod tool = call.tool;
        long resultIndex = replay.resultIndex();
        if (replay.byPerson() && resultIndex < 0) {
            mirrorSharedVerdict(call, replay);
        }
        String problem = null;
        if (Redactor.heldSecret(replay.resultJson())) {
            problem = HELD_SECRET;
        } else if (replay.resultJson() != null) {
            // a shared store keeps the result itself: the record that holds it may be on another host
            try {
                Object value = results.decode(replay.resultJson(), Outcomes.valueType(tool));
                records.appendQuietly(records.base(call, RecordType.DEDUP).started(System.currentTimeMillis()).build());
                inFlight.finish(call, shaper.ok(call, Outcomes.of(call, Status.OK, EffectApplied.YES, null, value, null), value));
                records.events().dedup(call, false);
                return;
            } catch (Exception e) {
                problem = "it cannot be read back as " + tool.returnType().getTypeName() + " (" + e.getMessage() + ")";
            }
        } else if (resultIndex >= 0) {
            try {
                JournalRecord stored = records.read(resultIndex).orElse(null);
                if (stored != null && stored.type() == RecordType.RESOLUTION) {
                    replayResolved(call, stored);
                    return;
                }
                if (stored != null && Redactor.heldSecret(stored.result())) {
                    problem = HELD_SECRET;
                } else if (stored != null && stored.result() != null) {
                    Object value = results.decode(stored.result(), Outcomes.valueType(tool));
                    records.appendQuietly(records.base(call, RecordType.DEDUP).started(System.currentTimeMillis())
                            .attempt(stored.attempt()).attemptId(stored.attemptId()).build());
                    inFlight.finish(call, shaper.ok(call, Outcomes.of(call, Status.OK, EffectApplied.YES, null, value, null), value));
                    records.events().dedup(call, false);
                    return;
                } else {
                    problem = "the record holding it is gone";
                }
            } catch (Exception e) {
                problem = "it cannot be read back as " + tool.returnType().getTypeName() + " (" + e.getMessage() + ")";
            }
        } else if (replay.byPerson()) {
            problem = "a person resolved it as applied and gave no result";
        } else if (problem == null) {
            problem = "it could not be serialized when it was returned";
        }
        answerWithoutValue(call, "already done: the effect was applied earlier; the original result was not"
                + " stored (" + problem + ")", replay.byPerson());
    }

    /**
     * A person's verdict this host learned from a shared store (a local resolution has a record, so its
     * index): written to this host's journal too, so that its own view ({@code journal unresolved},
     * {@code show} on this host) agrees with the store instead of holding the intent it wrote for ever.
     * Appended only, not applied to the store, which holds the verdict already.
     */
    private void mirrorSharedVerdict(Call call, Decision.Replay replay) {
        if (mirrored.size() > MAX_MIRRORED) {
            mirrored.clear(); // a bound, not a cache anyone relies on: at worst a verdict is written twice
        }
        if (!mirrored.add(call.intentKey())) {
            return;
        }
        records.appendQuietly(records.base(call, RecordType.RESOLUTION).started(System.currentTimeMillis())
                .effectApplied(Effect.YES).result(replay.resultJson())
                .message("resolved as applied by a person through the shared store").thread("shared store").build());
    }

    /**
     * A repeat of an intent a person resolved as applied: their value when they gave one (checked
     * against the return type here if the writer did not know the tool then), else ok without a
     * value, saying who settled it and why.
     */
    private void replayResolved(Call call, JournalRecord resolution) {
        ToolMethod tool = call.tool;
        String byPerson = "already done: resolved by a person as applied"
                + (resolution.message() == null || resolution.message().isBlank() ? "" : " (note: " + resolution.message() + ")");
        String problem;
        if (resolution.result() != null) {
            try {
                Object value = results.decode(resolution.result(), Outcomes.valueType(tool));
                Outcome<Object> ok = Outcomes.withValue(Outcomes.of(call, Status.OK, EffectApplied.YES, null, null,
                        byPerson), value);
                records.appendQuietly(records.base(call, RecordType.DEDUP).started(System.currentTimeMillis())
                        .attempt(resolution.attempt()).attemptId(resolution.attemptId()).message(byPerson).build());
                inFlight.finish(call, shaper.ok(call, ok, value));
                records.events().dedup(call, true);
                return;
            } catch (Exception e) {
                String fix = hint.command(call.intentKey()).replace(" --applied yes", " --force --applied yes --result JSON");
                problem = "; the result they gave cannot be read back as " + tool.returnType().getTypeName() + " ("
                        + e.getMessage() + "), so none is returned"
                        + (hint.operatorInAnswer() ? ": correct it with " + fix : "; a person is told to correct it");
                // the operator's command goes to the log, never to the model (which could read it to a customer)
                AgentLog.warnOnce("bad-result " + call.intentKey(), "effectful: " + tool.verb() + " (intent "
                        + call.intentKey() + ") was resolved with a result that cannot be read back as "
                        + tool.returnType().getTypeName() + "; correct it with: " + fix);
            }
        } else {
            problem = "; no result was given, so none is returned";
        }
        answerWithoutValue(call, byPerson + problem, true);
    }

    private void answerWithoutValue(Call call, String message, boolean byPerson) {
        Outcome<Object> noValue = Outcomes.okWithoutValue(call, message);
        records.appendQuietly(records.base(call, RecordType.DEDUP).started(System.currentTimeMillis())
                .message(noValue.message()).build());
        inFlight.finish(call, shaper.okWithoutValue(call, noValue));
        records.events().dedup(call, byPerson);
    }

    /** The answer a repeat of an intent whose result quoted a secret gets (see {@link Call#forWaiters}). */
    Completion heldSecretAnswer(Call call) {
        return shaper.okWithoutValue(call, new Outcome<>(Status.OK, EffectApplied.YES, call.attemptId(), call.intentKey(),
                null, call.task().leftSeconds(), "already done: the effect was applied earlier; the original result was"
                + " not stored (" + HELD_SECRET + ")", null, List.of()));
    }
}

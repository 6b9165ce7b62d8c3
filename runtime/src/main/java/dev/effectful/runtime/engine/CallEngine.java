package dev.effectful.runtime.engine;

import dev.effectful.runtime.journal.ApiWords;
import dev.effectful.runtime.journal.Effect;
import dev.effectful.runtime.journal.OutcomeWord;
import dev.effectful.runtime.journal.AttemptIds;
import dev.effectful.Attempt;
import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;
import dev.effectful.runtime.classify.Classification;
import dev.effectful.runtime.classify.Classifier;
import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.deadline.Interrupter;
import dev.effectful.runtime.journal.Journal;
import dev.effectful.runtime.journal.JournalProblem;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.JournalUnavailableException;
import dev.effectful.runtime.journal.RecordType;
import dev.effectful.runtime.keys.IntentKeys;
import dev.effectful.runtime.keys.NotCanonicalException;
import dev.effectful.runtime.log.AgentLog;
import dev.effectful.runtime.log.LogSink;
import dev.effectful.runtime.reentry.Decision;
import dev.effectful.runtime.reentry.IntentStore;
import dev.effectful.runtime.reentry.ReentryRules;
import dev.effectful.runtime.reentry.ResolveHint;
import dev.effectful.runtime.reentry.StoreUnavailableException;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.runtime.tool.ToolMethods;
import dev.effectful.runtime.values.ArgsRenderer;
import dev.effectful.runtime.values.ResultCodec;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the protocol around every tool call: key the intent, consult the re-entry rules, write the
 * intent before the body, classify what happened, write the outcome after, shape the answer.
 *
 * <p>Never throws to the advice: an internal failure refuses an effectful call (its intent could
 * not be journaled, so it must not run) and lets a READ call run untouched.
 */
public final class CallEngine {

    private final EffectfulConfig config;
    private final JournalAccess journal;
    private final IntentStore store;
    private final ToolMethods tools = new ToolMethods();
    private final ArgsRenderer argsRenderer;
    private final ResultCodec results;
    private final Classifier classifier;
    private final OutcomeShaper shaper;
    private final Interrupter interrupter = new Interrupter();
    private final InFlightCalls inFlight = new InFlightCalls();
    private final VerbOrdinals ordinals = new VerbOrdinals();
    private final ProbeRunner probes;
    private final BatchProtocol batches = new BatchProtocol(this);
    /** The paste-ready resolve command held intents name. */
    private final ResolveHint hint;
    /** A person's verdicts handed over by the CLI while this process writes the journal; null: no journal. */
    private final ResolutionRequests resolutions;
    private final BodiesOnThread bodies = new BodiesOnThread();
    /** How long a call in a task without a budget waits for the same intent running on another host. */
    static final long NO_BUDGET_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    public CallEngine(EffectfulConfig config, JournalAccess journal, IntentStore store, ArgsRenderer argsRenderer,
                      ResultCodec results, Classifier classifier) {
        this.config = config;
        this.journal = journal;
        this.store = store;
        this.argsRenderer = argsRenderer;
        this.results = results;
        this.classifier = classifier;
        this.shaper = new OutcomeShaper(config.failure());
        this.probes = new ProbeRunner(results);
        boolean local = journal.available() && journal.journal().directory() != null;
        this.hint = local ? ResolveHint.forJournal(journal.journal().directory()) : ResolveHint.generic();
        this.resolutions = local ? new ResolutionRequests(journal.journal().directory(), journal, store, results,
                inFlight::isRunning) : null;
    }

    /** Starts watching for resolutions given with {@code journal resolve} while this process runs. */
    public void startResolutionWatch() {
        if (resolutions != null) {
            resolutions.start();
        }
    }

    // ---------------------------------------------------------------- entry

    /** Called before the body. The returned handle says whether the body runs. */
    public Object enter(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        ToolMethod tool;
        try {
            tool = tools.resolve(type, methodAndDescriptor);
        } catch (RuntimeException | LinkageError e) {
            AgentLog.errorOnce("resolve:" + type.getName() + methodAndDescriptor, "effectful cannot read the tool "
                    + type.getName() + "." + methodAndDescriptor + "; its calls run unguarded", e);
            return null;
        }
        if (bodies.innermost() != null && partOfEnclosingCall(tool, args)) {
            // a proxy or subclass in front of this method already guards this intent: its attempt runs on
            AgentLog.debug("effectful: " + tool + " runs inside the enclosing guarded call of the same intent");
            return null;
        }
        Call call = new Call(tool, self, args);
        try {
            call.redactor = Redactor.of(argsRenderer.fingerprinter(), call.args, tool.params());
            begin(call);
        } catch (RuntimeException | LinkageError e) {
            AgentLog.errorOnce("enter:" + tool, "internal error before " + tool.verb() + ": " + e, e);
            if (call.flight != null) {
                inFlight.release(call.intentKey, call.flight, null);
                call.flight = null;
            }
            if (tool.isRead()) {
                return null;
            }
            refuse(call, Status.RETRYABLE, EffectApplied.NO, null, "effectful internal error before the call: " + e
                    + "; the call was not made");
        }
        if (!call.bodySkipped()) {
            bodies.entered(call);
        }
        return call;
    }

    /**
     * Whether a guarded call whose body runs on this thread is the same intent: the same verb and
     * the same arguments, or the same key under that call's task (an implicit task has a new id per
     * call, so the key alone would never match there).
     */
    private boolean partOfEnclosingCall(ToolMethod tool, Object[] args) {
        Object[] mine = args == null ? new Object[0] : args;
        for (Call c = bodies.innermost(); c != null; c = c.enclosing) {
            if (!c.tool.verb().equals(tool.verb())) {
                continue;
            }
            try {
                if (java.util.Arrays.deepEquals(mine, c.args) || java.util.Arrays.deepEquals(mine, c.replacedArgs)) {
                    return true;
                }
                if (tool.hasIntentKey() && c.intentKey != null) {
                    ArgsRenderer.KeyParts parts = argsRenderer.keyParts(mine, tool.params());
                    if (c.intentKey.equals(IntentKeys.derive(c.task.id(), c.task.actor(), tool.verb(), parts.target(),
                            parts.slot()))) {
                        return true;
                    }
                }
            } catch (NotCanonicalException | RuntimeException incomparable) {
                // arguments that cannot be compared are not the same intent; the call is guarded on its own
            }
        }
        return false;
    }

    private void begin(Call call) {
        ToolMethod tool = call.tool;
        call.task = TaskContext.current();
        TaskContext task = call.task;
        if (task.implicit()) {
            AgentLog.warnOnce("notask", "tool " + tool.verb() + " was called outside any task: each such call is its"
                    + " own task, journaled but never deduplicated; open one with Task.open(taskId, budget)");
        }
        ArgsRenderer.KeyParts parts;
        try {
            parts = argsRenderer.keyParts(call.args, tool.params());
        } catch (NotCanonicalException e) {
            refuse(call, Status.PERMANENT, EffectApplied.NO, null, e.getMessage() + "; the call was not made");
            return;
        }
        String target = parts.hasIntentKey() ? parts.target() : "#" + ordinals.next(task.id(), tool.verb());
        call.intentKey = IntentKeys.derive(task.id(), task.actor(), tool.verb(), target, parts.slot());
        // after the key (the refusal names the intent it refused), before any intent is written
        if (task.hasBudget()) {
            long left = task.leftNanos();
            if (left <= 0 || left < TimeUnit.MILLISECONDS.toNanos(tool.floorMillis())) {
                refuse(call, Status.RETRYABLE, EffectApplied.NO, null, new OutcomeFields(0L),
                        "task budget exhausted (" + TimeUnit.NANOSECONDS.toMillis(left) + " ms left"
                                + (tool.floorMillis() > 0 ? ", this call needs " + tool.floorMillis() + " ms" : "")
                                + "): not started; stop and report to the user");
                return;
            }
        }

        if (!tool.isRead()) {
            // a damaged journal record may be this call's earlier attempt: never guessed, held for a person
            java.util.Optional<String> held = journal.damageHold(task.id(), call.intentKey);
            if (held.isPresent()) {
                refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, held.get());
                return;
            }
        }
        boolean batch = tool.batch().isPresent() && !tool.isRead();
        if ((tool.isRead() || task.implicit()) && !batch) {
            startAttempt(call, store.get(call.intentKey).map(s -> s.attempts() + 1).orElse(1));
            return;
        }
        if (!task.implicit()) {
            CompletableFuture<Completion> mine = new CompletableFuture<>();
            CompletableFuture<Completion> running = inFlight.claim(call.intentKey, mine);
            if (running != null) {
                waitForRunning(call, running);
                return;
            }
            call.flight = mine;
        }
        if (batch) {
            batches.begin(call);
            return;
        }
        if (resolutions != null) {
            // a verdict given a moment ago must not wait for the watcher's next look
            resolutions.beforeCall(call.intentKey, tool);
        }
        Decision d;
        try {
            d = store.decideAndClaim(call.intentKey, new IntentStore.IntentMeta(task.id(), tool.verb(),
                            tool.kindWord()),
                    (state, now) -> ReentryRules.decide(state, tool.kind(), tool.keyable(), tool.probe().isPresent(),
                            call.intentKey, now, hint),
                    task.hasBudget() ? task.leftNanos() : NO_BUDGET_WAIT_NANOS);
        } catch (StoreUnavailableException e) {
            JournalProblem down = new JournalProblem(JournalProblem.Cause.STORE_DOWN, e.getMessage());
            refuse(call, down.status(), EffectApplied.NO, down.retryAfterS(), e.getMessage() + "; the call was not made");
            return;
        }
        if (d instanceof Decision.Run run) {
            startAttempt(call, run.attempt());
        } else if (d instanceof Decision.Replay replay) {
            replay(call, replay);
        } else if (d instanceof Decision.Refuse r) {
            refuse(call, r.status(), r.effect(), r.retryAfterS(), r.message() + beyondBudget(call.task, r.retryAfterS()));
        } else if (d instanceof Decision.Probe p) {
            probeThenDecide(call, p.lastAttempt());
        } else if (d instanceof Decision.Elsewhere e) {
            refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, new OutcomeFields(0L), "the same intent is running"
                    + " on " + e.holder() + " and the task budget ran out while waiting for it; stop and report");
        }
    }

    private void startAttempt(Call call, int attempt) {
        call.attempt = attempt;
        call.attemptId = AttemptIds.of(call.task.id(), call.intentKey, attempt);
        call.startedMillis = System.currentTimeMillis();
        call.startNanos = System.nanoTime();
        JournalRecord intent = base(call, RecordType.INTENT)
                .attempt(attempt).attemptId(call.attemptId).started(call.startedMillis).reentry(call.tool.reentryWord())
                // rendered only here: a deduplicated or refused call never needs its arguments as JSON
                .budgetLeftS(call.task.leftSeconds()).args(argsRenderer.render(call.args, call.tool.params())).build();
        try {
            journal.appendAndApply(intent, store);
            call.journaled = true;
        } catch (JournalUnavailableException e) {
            if (!call.tool.isRead()) {
                store.abandon(call.intentKey, attempt);
                // the cause decides: a journal that is misplaced or damaged is permanent, a full disk passes
                refuse(call, e.status(), EffectApplied.NO, e.retryAfterS(), e.getMessage() + "; the call was not made");
                return;
            }
            AgentLog.warnOnce("read-unjournaled", "READ calls run unjournaled while " + e.getMessage());
        }
        call.attemptScope = new Attempt(call.intentKey, attempt, call.attemptId).makeCurrent();
        armDeadline(call);
    }

    /** Interrupts the calling thread at min(task deadline, per-attempt timeout): cancel, don't orphan. */
    void armDeadline(Call call) {
        long cap = call.task.leftNanos();
        if (call.tool.timeoutMillis() > 0) {
            cap = Math.min(cap, TimeUnit.MILLISECONDS.toNanos(call.tool.timeoutMillis()));
        }
        if (cap != Long.MAX_VALUE) {
            call.alarm = interrupter.arm(Thread.currentThread(), cap);
        }
    }

    private void waitForRunning(Call call, CompletableFuture<Completion> running) {
        long left = call.task.leftNanos();
        try {
            Completion c = running.get(left, TimeUnit.NANOSECONDS);
            if (c == null) {
                refuse(call, Status.RETRYABLE, EffectApplied.UNKNOWN, null,
                        "the same intent failed inside effectful while this call waited for it; retry");
                return;
            }
            call.completion = c;
            if (c.thrown() == null) {
                appendQuietly(base(call, RecordType.DEDUP).started(System.currentTimeMillis())
                        .message("answered by the concurrent call of the same intent").build());
            }
        } catch (TimeoutException e) {
            refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, new OutcomeFields(0L),
                    "the same intent is still running in this process and the task budget ran out while waiting;"
                            + " stop and report");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null,
                    "interrupted while the same intent was running in this process");
        } catch (ExecutionException e) {
            refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, "the concurrent call failed: " + e.getCause());
        }
    }

    private void replay(Call call, Decision.Replay replay) {
        ToolMethod tool = call.tool;
        Outcome<Object> ok = outcome(call, Status.OK, EffectApplied.YES, null, null, null);
        long resultIndex = replay.resultIndex();
        String problem = null;
        if (Redactor.heldSecret(replay.resultJson())) {
            problem = HELD_SECRET;
        } else if (replay.resultJson() != null) {
            // a shared store keeps the result itself: the record that holds it may be on another host
            try {
                Object value = results.decode(replay.resultJson(), valueType(tool));
                appendQuietly(base(call, RecordType.DEDUP).started(System.currentTimeMillis()).build());
                finish(call, shaper.ok(call, withValue(ok, value), value));
                logLine(call, "deduplicated", "ok", "yes", 0);
                return;
            } catch (Exception e) {
                problem = "it cannot be read back as " + tool.returnType().getTypeName() + " (" + e.getMessage() + ")";
            }
        } else if (resultIndex >= 0) {
            try {
                JournalRecord stored = journal.read(resultIndex).orElse(null);
                if (stored != null && stored.type() == RecordType.RESOLUTION) {
                    replayResolved(call, stored);
                    return;
                }
                if (stored != null && Redactor.heldSecret(stored.result())) {
                    problem = HELD_SECRET;
                } else if (stored != null && stored.result() != null) {
                    Object value = results.decode(stored.result(), valueType(tool));
                    appendQuietly(base(call, RecordType.DEDUP).started(System.currentTimeMillis())
                            .attempt(stored.attempt()).attemptId(stored.attemptId()).build());
                    finish(call, shaper.ok(call, withValue(ok, value), value));
                    logLine(call, "deduplicated", "ok", "yes", 0);
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
        Outcome<Object> noValue = new Outcome<>(Status.OK, EffectApplied.YES, null, call.intentKey, null,
                call.task.leftSeconds(), "already done: the effect was applied earlier; the original result was not"
                + " stored (" + problem + ")", null, List.of());
        appendQuietly(base(call, RecordType.DEDUP).started(System.currentTimeMillis()).message(noValue.message()).build());
        finish(call, shaper.okWithoutValue(call, noValue));
        logLine(call, "deduplicated", "ok", "yes", 0);
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
                Object value = results.decode(resolution.result(), valueType(tool));
                Outcome<Object> ok = withValue(outcome(call, Status.OK, EffectApplied.YES, null, null, byPerson), value);
                appendQuietly(base(call, RecordType.DEDUP).started(System.currentTimeMillis())
                        .attempt(resolution.attempt()).attemptId(resolution.attemptId()).message(byPerson).build());
                finish(call, shaper.ok(call, ok, value));
                logLine(call, "deduplicated (resolved)", "ok", "yes", 0);
                return;
            } catch (Exception e) {
                problem = "; the result they gave cannot be read back as " + tool.returnType().getTypeName() + " ("
                        + e.getMessage() + "), so none is returned: correct it with " + hint.command(call.intentKey)
                        .replace(" --applied yes", " --force --applied yes --result JSON");
            }
        } else {
            problem = "; no result was given, so none is returned";
        }
        Outcome<Object> noValue = new Outcome<>(Status.OK, EffectApplied.YES, null, call.intentKey, null,
                call.task.leftSeconds(), byPerson + problem, null, List.of());
        appendQuietly(base(call, RecordType.DEDUP).started(System.currentTimeMillis()).message(noValue.message()).build());
        finish(call, shaper.okWithoutValue(call, noValue));
        logLine(call, "deduplicated (resolved)", "ok", "yes", 0);
    }

    /** Why a repeat does not get a result that quoted a {@code @Redact} secret: what is stored is not the original. */
    private static final String HELD_SECRET = "it held a redacted value";

    /** The answer a repeat of an intent whose result quoted a secret gets (see {@link Call#forWaiters}). */
    private Completion heldSecretAnswer(Call call) {
        return shaper.okWithoutValue(call, new Outcome<>(Status.OK, EffectApplied.YES, call.attemptId, call.intentKey,
                null, call.task.leftSeconds(), "already done: the effect was applied earlier; the original result was"
                + " not stored (" + HELD_SECRET + ")", null, List.of()));
    }

    private void probeThenDecide(Call call, int lastAttempt) {
        ToolMethod tool = call.tool;
        long started = System.currentTimeMillis();
        ProbeRunner.Result r = probes.run(tool, call.self, call.args);
        JournalRecord.Builder rec = base(call, RecordType.PROBE).attempt(lastAttempt).started(started)
                .durationMs(System.currentTimeMillis() - started).probe(r.word());
        switch (r.word()) {
            case FOUND -> {
                if (!r.hasValue()) {
                    foundWithoutValue(call, rec);
                    return;
                }
                rec.outcome(OutcomeWord.OK).effectApplied(Effect.YES).result(r.json()).message(r.message());
                appendAndApply(rec.build());
                if (r.json() != null && Redactor.heldSecret(call.redactor.result(r.json()))) {
                    call.forWaiters = heldSecretAnswer(call);
                }
                Outcome<Object> ok = withValue(outcome(call, Status.OK, EffectApplied.YES, null, null,
                        "an earlier attempt had applied: the probe found it"), r.value());
                finish(call, shaper.ok(call, ok, r.value()));
                logLine(call, "probe found", "ok", "yes", 0);
            }
            case ABSENT -> {
                appendAndApply(rec.build());
                startAttempt(call, lastAttempt + 1);
            }
            default -> {
                rec.outcome(OutcomeWord.UNKNOWN).effectApplied(Effect.UNKNOWN).message(r.message());
                appendAndApply(rec.build());
                refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, "attempt " + lastAttempt
                        + " may have applied and the probe failed (" + r.message() + "): not run again; retry later or"
                        + " ask a person to resolve it; " + hint.sentence(call.intentKey));
            }
        }
    }

    /** A probe that says only "applied" (true, or any value for a void tool): answered like a dedup without a stored result. */
    private void foundWithoutValue(Call call, JournalRecord.Builder rec) {
        Outcome<Object> noValue = new Outcome<>(Status.OK, EffectApplied.YES, null, call.intentKey, null,
                call.task.leftSeconds(), "already done: an earlier attempt had applied (the probe found it); the original"
                + " result was not stored (" + ProbeRunner.NO_VALUE + ")", null, List.of());
        appendAndApply(rec.outcome(OutcomeWord.OK).effectApplied(Effect.YES).message(noValue.message()).build());
        finish(call, shaper.okWithoutValue(call, noValue));
        logLine(call, "probe found", "ok", "yes", 0);
    }

    // ---------------------------------------------------------------- exit

    /** The arguments the body runs with: for a batch, only the items still to send. */
    public Object[] arguments(Object handle, Object[] original) {
        Object[] replaced = ((Call) handle).replacedArgs;
        return replaced == null ? original : replaced;
    }

    public boolean skipBody(Object handle) {
        return ((Call) handle).bodySkipped();
    }

    /** Called after the body (or after a skipped body); returns what the caller receives. */
    public Completion exit(Object handle, Object returned, Throwable thrown) {
        Call call = (Call) handle;
        if (call.bodySkipped()) {
            return call.completion;
        }
        bodies.left(call);
        Completion result;
        try {
            result = conclude(call, returned, thrown);
        } catch (RuntimeException | LinkageError e) {
            AgentLog.errorOnce("exit:" + call.tool, "internal error after " + call.tool.verb() + ": " + e, e);
            result = new Completion(returned, thrown);
        }
        if (call.flight != null) {
            inFlight.release(call.intentKey, call.flight, call.forWaiters != null ? call.forWaiters : result);
            call.flight = null;
        }
        call.completion = result;
        return result;
    }

    /** What to throw for a call whose {@link #exit} has run; null means return its value. */
    public Throwable thrown(Object handle) {
        Completion c = ((Call) handle).completion;
        return c == null ? null : c.thrown();
    }

    private Completion conclude(Call call, Object returned, Throwable thrown) {
        ToolMethod tool = call.tool;
        if (call.attemptScope != null) {
            call.attemptScope.close();
        }
        boolean timedOut = call.alarm != null && call.alarm.disarm();
        if (call.items != null) {
            return batches.conclude(call, returned, thrown, timedOut);
        }
        long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - call.startNanos);

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
                outcome = fill(call, own);
            } else {
                Classification c = classifier(call).classifyReturned(returned, tool.kind()).orElse(null);
                outcome = c == null ? outcome(call, Status.OK, EffectApplied.YES, null, null, null)
                        : outcome(call, c.status(), c.effect(), c.retryAfterS(), null, c.message());
            }
        }

        String beyond = outcome.status() == Status.RETRYABLE ? beyondBudget(call.task, outcome.retryAfterS()) : "";
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
            } else if (call.redactor.active() && resultJson != null) {
                String redacted = call.redactor.result(resultJson);
                if (!redacted.equals(resultJson)) {
                    resultJson = redacted;
                    message = "result stored with its redacted values replaced: a repeat answers without it";
                    call.forWaiters = heldSecretAnswer(call);
                }
            }
        }
        JournalRecord rec = base(call, RecordType.OUTCOME).attempt(call.attempt).attemptId(call.attemptId)
                .started(call.startedMillis).outcome(ApiWords.outcome(outcome.status()))
                .effectApplied(ApiWords.effect(outcome.effectApplied())).retryAfterS(outcome.retryAfterS())
                .deadlineLeftS(call.task.leftSeconds()).message(message).result(resultJson).durationMs(durationMs)
                .build();
        if (call.journaled) {
            appendAndApply(rec);
        }
        if (resolutions != null && outcome.status() == Status.UNKNOWN) {
            resolutions.remember(call.intentKey, tool); // so a person's --result can be checked against its type
        }
        logLine(call, "attempt " + call.attempt, outcome.status().word(), outcome.effectApplied().word(), durationMs);

        if (outcome.status() == Status.OK) {
            Object value = returned instanceof Outcome<?> o && tool.returnsOutcome() ? o.value() : returned;
            return shaper.ok(call, outcome, value);
        }
        return shaper.failure(call, outcome, unwrap(cause));
    }

    private Outcome<Object> fromThrown(Call call, Throwable thrown, boolean timedOut, long durationMs) {
        EffectKind kind = call.tool.kind();
        if (timedOut) {
            boolean read = kind == EffectKind.READ;
            return outcome(call, read ? Status.RETRYABLE : Status.UNKNOWN, read ? EffectApplied.NO : EffectApplied.UNKNOWN,
                    null, null, "deadline reached after " + durationMs + " ms and the call was interrupted"
                            + (read ? "" : "; the effect may still land: do not retry, probe or ask"));
        }
        Throwable t = unwrap(thrown);
        if (t instanceof ToolOutcomeException toe) {
            return fill(call, toe.outcome());
        }
        Classification c = classifier(call).classify(t, kind, call.tool.overrides());
        return outcome(call, c.status(), c.effect(), c.retryAfterS(), null, c.message());
    }

    private Throwable checkReturned(ToolMethod tool, Object self, Object returned) {
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

    // ---------------------------------------------------------------- helpers

    void refuse(Call call, Status status, EffectApplied effect, Long retryAfterS, String message) {
        refuse(call, status, effect, retryAfterS, null, message);
    }

    private void refuse(Call call, Status status, EffectApplied effect, Long retryAfterS, OutcomeFields fields,
                        String message) {
        Long deadlineLeft = fields != null ? fields.deadlineLeftS() : call.task == null ? null : call.task.leftSeconds();
        Outcome<Object> o = new Outcome<>(status, effect, null, call.intentKey, retryAfterS, deadlineLeft, message, null,
                List.of());
        if (call.intentKey != null && status != Status.OK) {
            appendQuietly(base(call, RecordType.REFUSED).started(System.currentTimeMillis()).outcome(ApiWords.outcome(status))
                    .effectApplied(ApiWords.effect(effect)).retryAfterS(retryAfterS).deadlineLeftS(deadlineLeft).message(message)
                    .build());
        }
        logLine(call, "refused", status.word(), effect.word(), 0);
        finish(call, shaper.failure(call, o, null));
    }

    private record OutcomeFields(Long deadlineLeftS) {
    }

    /** A Retry-After the task cannot wait out: say so, so the model stops instead of waiting or looping. */
    private static String beyondBudget(TaskContext task, Long retryAfterS) {
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

    void finish(Call call, Completion c) {
        call.completion = c;
        if (call.flight != null) {
            inFlight.release(call.intentKey, call.flight, call.forWaiters != null ? call.forWaiters : c);
            call.flight = null;
        }
    }

    private Outcome<Object> outcome(Call call, Status status, EffectApplied effect, Long retryAfterS, Object value,
                                    String message) {
        return new Outcome<>(status, effect, call.attemptId, call.intentKey, retryAfterS,
                call.task == null ? null : call.task.leftSeconds(), message, value, List.of());
    }

    @SuppressWarnings("unchecked")
    private Outcome<Object> fill(Call call, Outcome<?> own) {
        return new Outcome<>(own.status(), own.effectApplied(),
                own.attemptId() != null ? own.attemptId() : call.attemptId,
                own.intentKey() != null ? own.intentKey() : call.intentKey, own.retryAfterS(),
                own.deadlineLeftS() != null ? own.deadlineLeftS() : call.task.leftSeconds(), own.message(),
                (Object) own.value(), own.items());
    }

    private static Outcome<Object> withValue(Outcome<Object> o, Object value) {
        return new Outcome<>(o.status(), o.effectApplied(), o.attemptId(), o.intentKey(), o.retryAfterS(),
                o.deadlineLeftS(), o.message(), value, o.items());
    }

    private static java.lang.reflect.Type valueType(ToolMethod tool) {
        if (tool.returnsOutcome() && tool.returnType() instanceof java.lang.reflect.ParameterizedType p) {
            return p.getActualTypeArguments()[0];
        }
        return tool.returnType();
    }

    private static Throwable unwrap(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof InvocationTargetException || cur instanceof java.lang.reflect.UndeclaredThrowableException)
                && cur.getCause() != null) {
            cur = cur.getCause();
        }
        return cur;
    }

    JournalRecord.Builder base(Call call, RecordType type) {
        JournalRecord.Builder b = JournalRecord.of(type).task(call.task.id())
                .actor(call.task.actor().isEmpty() ? null : call.task.actor())
                .call(call.tool.verb()).kind(ApiWords.kind(call.tool.kind()))
                .intentKey(call.intentKey);
        // every record of a call is built here, so here its @Redact rule covers message, result and args
        return call.redactor.active() ? b.finishWith(call.redactor::record) : b;
    }

    void appendAndApply(JournalRecord r) {
        try {
            journal.appendAndApply(r, store);
        } catch (JournalUnavailableException e) {
            AgentLog.errorOnce("append:" + r.type(), "could not journal a " + r.type().word() + " record: "
                    + e.getMessage() + "; the intent stays unresolved in the journal", null);
        }
    }

    private void appendQuietly(JournalRecord r) {
        try {
            journal.append(r);
        } catch (JournalUnavailableException e) {
            AgentLog.warnOnce("append-aux", "could not journal a " + r.type().word() + " record: " + e.getMessage());
        }
    }

    void logLine(Call call, String what, String outcome, String effect, long durationMs) {
        if (!AgentLog.isEnabled(LogSink.Level.INFO)) {
            return;
        }
        AgentLog.info("effectful " + what + " task=" + (call.task == null ? "-" : call.task.id()) + " call="
                + call.tool.verb() + " kind=" + call.tool.kindWord() + " intent_key="
                + call.intentKey + (call.attemptId == null ? "" : " attempt_id=" + call.attemptId) + " outcome="
                + outcome + " effect_applied=" + effect + " duration_ms=" + durationMs);
    }

    ArgsRenderer argsRenderer() {
        return argsRenderer;
    }

    JournalAccess journalAccess() {
        return journal;
    }

    ProbeRunner probes() {
        return probes;
    }

    /** The classifier with the call's redaction applied to what it quotes, before quotes are capped. */
    Classifier classifier(Call call) {
        return call.redactor.active() ? classifier.redacting(call.redactor) : classifier;
    }

    OutcomeShaper shaper() {
        return shaper;
    }

    public EffectfulConfig config() {
        return config;
    }

    public IntentStore store() {
        return store;
    }

    public Journal journal() {
        return journal.journal();
    }
}

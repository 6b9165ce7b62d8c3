package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Status;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.journal.JournalProblem;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.json.NotCanonicalException;
import dev.effectful.core.keys.EarlierKeys;
import dev.effectful.core.keys.IntentKeys;
import dev.effectful.core.keys.KeySecretException;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.ReentryRules;
import dev.effectful.core.reentry.ResolveHint;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.runtime.tool.ComponentKeys;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The first stage: whether and how a call may go on, in this order. Its task and intent key (a
 * key that cannot be derived refuses the call); the task's budget (too little left refuses it
 * before any intent); the same intent running in this process (waited for, never run twice); then
 * the re-entry table for what the journal knows of the key, which sends the call on to
 * {@link Execution} (run or probe), {@link Replays} (already done) or {@link Refusals}.
 */
final class Admission {

    /** How long a call in a task without a budget waits for the same intent running on another host. */
    static final long NO_BUDGET_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final ArgsRenderer argsRenderer;
    private final IntentStore store;
    private final InFlightCalls inFlight;
    private final BatchProtocol batches;
    /** A person's verdicts handed over by the CLI while this process writes the journal; null: no journal. */
    private final ResolutionRequests resolutions;
    /** The paste-ready resolve command held intents name. */
    private final ResolveHint hint;
    private final HeldIntents held;
    private final Execution execution;
    private final Replays replays;
    private final Refusals refusals;
    private final CallRecords records;
    private final VerbOrdinals ordinals = new VerbOrdinals();
    private final ApprovalRequests approvalRequests;
    /** Whether the journal may hold keys of the earlier format ({@code KeyFormat}); set before the first call. */
    private boolean earlierKeys;

    Admission(Shared shared, BatchProtocol batches, ResolutionRequests resolutions, Execution execution) {
        this.argsRenderer = shared.argsRenderer();
        this.store = shared.store();
        this.inFlight = shared.inFlight();
        this.hint = shared.hint();
        this.held = shared.held();
        this.replays = shared.replays();
        this.refusals = shared.refusals();
        this.records = shared.records();
        this.batches = batches;
        this.resolutions = resolutions;
        this.execution = execution;
        this.approvalRequests = new ApprovalRequests(shared, resolutions);
    }

    /**
     * Whether a guarded call whose body runs on this thread ({@code innermost} and what encloses it)
     * is the same intent: the same verb and the same arguments, or the same key under that call's
     * task (an implicit task has a new id per call, so the key alone would never match there).
     */
    boolean partOfEnclosingCall(Call innermost, ToolMethod tool, Object[] args) {
        Object[] mine = args == null ? new Object[0] : args;
        for (Call c = innermost; c != null; c = c.enclosing()) {
            if (!c.tool.verb().equals(tool.verb())) {
                continue;
            }
            try {
                if (Arrays.deepEquals(mine, c.args) || Arrays.deepEquals(mine, c.replacedArgs())) {
                    return true;
                }
                if (tool.hasIntentKey() && c.intentKey() != null) {
                    ArgsRenderer.KeyParts parts = ComponentKeys.keyParts(argsRenderer, null, mine, tool.params());
                    if (c.intentKey().equals(IntentKeys.derive(c.task().id(), c.task().actor(), tool.verb(), parts.target(),
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

    /**
     * The configuration's approval rule ({@code effectful.approval}, {@code effectful.approval.timeout},
     * {@code effectful.approval.elicit}); {@code localStore}: the store is this process's own index.
     */
    void approvals(EffectfulConfig.Approvals configured, boolean localStore) {
        approvalRequests.configure(configured, localStore);
    }

    /** The journal's version mark says some of its keys may be plain joins: those are looked up too. */
    void journalHoldsEarlierKeys() {
        earlierKeys = true;
    }

    /** Admits {@code call}: on return its body may run, or it is answered ({@link Call#bodySkipped}). */
    void admit(Call call) {
        if (!keyWithinBudget(call)) {
            return;
        }
        ToolMethod tool = call.tool;
        TaskContext task = call.task();
        if (!tool.isRead()) {
            // a damaged journal record may be this call's earlier attempt: never guessed, held for a person
            java.util.Optional<String> held = records.damageHold(task.id(), call.intentKey());
            if (held.isPresent()) {
                refusals.refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, held.get());
                return;
            }
        }
        boolean batch = tool.batch().isPresent() && !tool.isRead();
        if (task.implicit() && !tool.isRead() && approvalRequests.rule(tool).required()) {
            // an approval follows an intent, and outside a task every call is a new one: it could never be given
            refusals.refuse(call, Status.PERMANENT, EffectApplied.NO, null, "tool " + tool.verb() + " needs a person's"
                    + " approval, which follows an intent of a task, and it was called outside any task: not run; open"
                    + " one with Task.open(taskId, budget)");
            return;
        }
        if (batch && approvalRequests.rule(tool).required()) {
            // each item is an intent of its own; one request for a whole batch would approve items nobody saw
            refusals.refuse(call, Status.PERMANENT, EffectApplied.NO, null, "tool " + tool.verb() + " is a batch tool"
                    + " and needs a person's approval, which effectful gives per intent, not per batch: not run; require"
                    + " approval on a tool that acts on one item, or remove it from effectful.approval");
            return;
        }
        if ((tool.isRead() || task.implicit()) && !batch) {
            execution.startAttempt(call, store.get(call.intentKey()).map(s -> s.attempts() + 1).orElse(1));
            return;
        }
        if (!task.implicit()) {
            CompletableFuture<Completion> mine = new CompletableFuture<>();
            CompletableFuture<Completion> running = inFlight.claim(call.intentKey(), mine);
            if (running != null) {
                if (call.async() != null) {
                    // an async caller is answered when the running call settles, without blocking its thread
                    call.async().join(call, running);
                    return;
                }
                waitForRunning(call, running);
                return;
            }
            call.joinFlight(mine);
        }
        if (batch) {
            batches.begin(call);
            return;
        }
        if (resolutions != null) {
            // a verdict given a moment ago must not wait for the watcher's next look
            resolutions.beforeCall(call.intentKey(), tool, call.task().leftNanos());
        }
        reenter(call, true);
    }

    /** Derives the call's task and intent key and checks its budget; false when the call was refused. */
    private boolean keyWithinBudget(Call call) {
        ToolMethod tool = call.tool;
        call.inTask(TaskContext.current());
        TaskContext task = call.task();
        if (task.implicit()) {
            AgentLog.warnOnce("notask", "tool " + tool.verb() + " was called outside any task: each such call is its"
                    + " own task, journaled but never deduplicated; open one with Task.open(taskId, budget)");
        }
        ArgsRenderer.KeyParts parts;
        try {
            parts = ComponentKeys.keyParts(argsRenderer, call.self, call.args, tool.params());
        } catch (NotCanonicalException e) {
            refusals.refuse(call, Status.PERMANENT, EffectApplied.NO, null, e.getMessage() + "; the call was not made");
            return false;
        } catch (KeySecretException e) {
            refusals.refuse(call, e.retryable() ? Status.RETRYABLE : Status.PERMANENT, EffectApplied.NO,
                    e.retryable() ? 5L : null, e.getMessage() + "; the call was not made");
            return false;
        }
        String target = parts.hasIntentKey() ? parts.target() : "#" + ordinals.next(task.id(), tool.verb());
        call.targets(target);
        call.keyed(IntentKeys.derive(task.id(), task.actor(), tool.verb(), target, parts.slot()));
        if (earlierKeys && !tool.isRead() && IntentKeys.escapingChanges(task.id(), task.actor(), tool.verb(), target,
                parts.slot()) && !earlierKey(call, target, parts.slot())) {
            return false;
        }
        // after the key (the refusal names the intent it refused), before any intent is written
        if (task.hasBudget()) {
            long left = task.leftNanos();
            if (left <= 0 || left < TimeUnit.MILLISECONDS.toNanos(tool.floorMillis())) {
                refusals.refuseOutOfBudget(call, Status.RETRYABLE, EffectApplied.NO,
                        "task budget exhausted (" + TimeUnit.NANOSECONDS.toMillis(left) + " ms left"
                                + (tool.floorMillis() > 0 ? ", this call needs " + tool.floorMillis() + " ms" : "")
                                + "): not started; stop and report to the user");
                return false;
            }
        }
        return true;
    }

    /**
     * A tuple whose key the escaping changed, in a journal that may hold its key of the earlier
     * format: the call goes under the earlier key when that is this tuple's intent (so it is neither
     * run again nor lost), or is held when that intent may be this call's and has no known outcome.
     * False when the call was refused.
     */
    private boolean earlierKey(Call call, String target, String slot) {
        TaskContext task = call.task();
        String earlier = IntentKeys.legacy(task.id(), task.actor(), call.tool.verb(), target, slot);
        // the store's local view: the earlier keys are this journal's own, replayed at start
        java.util.Optional<IntentState> earlierState = store.get(earlier);
        java.util.Optional<EarlierKeys.Owner> owner = earlierState.filter(s -> s.resultIndex() >= 0)
                .flatMap(s -> records.read(s.resultIndex()))
                .filter(r -> earlier.equals(r.intentKey()))
                .map(r -> new EarlierKeys.Owner(r.task(), r.actor(), r.call()));
        EarlierKeys.Choice choice = EarlierKeys.choose(store.get(call.intentKey()), earlierState, owner,
                new EarlierKeys.Owner(task.id(), task.actor(), call.tool.verb()), earlier);
        if (choice instanceof EarlierKeys.Choice.Earlier e) {
            call.keyed(e.key());
        } else if (choice instanceof EarlierKeys.Choice.Hold h) {
            refusals.refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, h.message());
            return false;
        }
        return true;
    }

    /**
     * The re-entry table on what the store knows of the key, claiming it when the call is to run or probe.
     * {@code mayAsk}: a new approval request may ask the caller's MCP client; false once it was asked.
     */
    private void reenter(Call call, boolean mayAsk) {
        ToolMethod tool = call.tool;
        TaskContext task = call.task();
        Decision d;
        try {
            d = store.decideAndClaim(call.intentKey(), new IntentStore.IntentMeta(task.id(), tool.verb(),
                            tool.kindWord()),
                    (state, now) -> ReentryRules.decide(state, ApiWords.kind(tool.kind()), tool.keyable(), tool.probe().isPresent(),
                            call.intentKey(), now, hint, approvalRequests.rule(tool)),
                    task.hasBudget() ? task.leftNanos() : NO_BUDGET_WAIT_NANOS);
        } catch (StoreUnavailableException e) {
            JournalProblem down = new JournalProblem(e.misconfigured() ? JournalProblem.Cause.MISCONFIGURED
                    : JournalProblem.Cause.STORE_DOWN, e.getMessage());
            refusals.refuse(call, JournalRefusal.status(down), EffectApplied.NO, down.retryAfterS(), e.getMessage()
                    + "; the call was not made");
            return;
        }
        if (d instanceof Decision.Run run) {
            execution.startAttempt(call, run.attempt());
        } else if (d instanceof Decision.Replay replay) {
            replays.replay(call, replay);
        } else if (d instanceof Decision.Refuse r) {
            if (r.status() == dev.effectful.core.journal.OutcomeWord.UNKNOWN) {
                held.held(call, "an earlier attempt's outcome is unknown and it declares no probe");
            }
            refusals.refuse(call, ApiWords.status(r.status()), ApiWords.applied(r.effect()), r.retryAfterS(), r.message()
                    + Refusals.beyondBudget(call.task(), r.retryAfterS()));
        } else if (d instanceof Decision.Probe p) {
            execution.probeThenDecide(call, p.lastAttempt());
        } else if (d instanceof Decision.RequestApproval a) {
            if (approvalRequests.request(call, a, mayAsk)) {
                reenter(call, false); // the verdict stands in the index now: approved runs once, denied is refused
            }
        } else if (d instanceof Decision.AwaitApproval w) {
            records.events().awaitingApproval(call);
            refusals.refuse(call, Status.RETRYABLE, EffectApplied.NO, w.retryAfterS(), w.message()
                    + Refusals.beyondBudget(call.task(), w.retryAfterS()));
        } else if (d instanceof Decision.ExpireApproval x) {
            approvalRequests.expire(call, x);
        } else if (d instanceof Decision.Denied denied) {
            String note = denied.note();
            if (note == null && denied.recordIndex() >= 0) {
                note = records.read(denied.recordIndex()).map(JournalRecord::note).orElse(null);
            }
            refusals.refuse(call, Status.PERMANENT, EffectApplied.NO, null,
                    ReentryRules.deniedMessage(denied.expired(), note));
        } else if (d instanceof Decision.Elsewhere e) {
            refusals.refuseOutOfBudget(call, Status.UNKNOWN, EffectApplied.UNKNOWN, "the same intent is running"
                    + " on " + e.holder() + " and the task budget ran out while waiting for it; stop and report");
        }
    }

    /** The same intent runs in this process: its answer is this call's, within the task's budget. */
    private void waitForRunning(Call call, CompletableFuture<Completion> running) {
        long left = call.task().leftNanos();
        try {
            Completion c = running.get(left, TimeUnit.NANOSECONDS);
            if (c == null) {
                refusals.refuse(call, Status.RETRYABLE, EffectApplied.UNKNOWN, null,
                        "the same intent failed inside effectful while this call waited for it; retry");
                return;
            }
            call.conclude(c);
            records.events().answeredByConcurrent(call, c);
            if (c.thrown() == null) {
                records.appendQuietly(records.base(call, RecordType.DEDUP).started(System.currentTimeMillis())
                        .message("answered by the concurrent call of the same intent").build());
            }
        } catch (TimeoutException e) {
            refusals.refuseOutOfBudget(call, Status.UNKNOWN, EffectApplied.UNKNOWN,
                    "the same intent is still running in this process and the task budget ran out while waiting;"
                            + " stop and report");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            refusals.refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null,
                    "interrupted while the same intent was running in this process");
        } catch (ExecutionException e) {
            refusals.refuse(call, Status.UNKNOWN, EffectApplied.UNKNOWN, null, "the concurrent call failed: " + e.getCause());
        }
    }
}

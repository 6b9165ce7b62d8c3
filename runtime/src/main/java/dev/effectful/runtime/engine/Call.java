package dev.effectful.runtime.engine;

import dev.effectful.Attempt;
import dev.effectful.runtime.deadline.Interrupter;
import dev.effectful.runtime.events.CallTrace;
import dev.effectful.runtime.events.Reentry;
import dev.effectful.runtime.tool.ToolMethod;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One call of a tool, from entry to exit: the handle the advice carries between the two.
 *
 * <p>Its state changes only through the named steps below, in the order a call takes them: entered a
 * task ({@link #inTask}), keyed ({@link #keyed}), joined or led the flight of its intent
 * ({@link #joinFlight}), started an attempt ({@link #started}), journaled its intent
 * ({@link #markJournaled}), bound its attempt and armed its deadline, and concluded ({@link #conclude}).
 * A call lives on one thread at a time (the advice's entry and exit, or an async tool's completion after
 * it), so the steps need no lock.
 *
 * <p>The steps that the journal's truth rests on are checked ({@link Stage}): a key is taken before an
 * attempt starts and cannot change after it, an attempt starts once, and its intent is journaled once and
 * only after it started. A step out of that order is a bug in the engine, refused with an
 * {@link IllegalStateException} naming the tool and both steps, rather than a record under a wrong key.
 */
final class Call {
    final ToolMethod tool;
    final Object self;
    final Object[] args;

    /** The {@code @Redact} rule for every text this call writes or hands out; {@link Redactor#NONE} for most tools. */
    private Redactor redactor = Redactor.NONE;
    private TaskContext task;
    private String intentKey;
    /** Its intent's target as the key was derived from it ({@code @Redact} values as fingerprints), or {@code #n}. */
    private String target;
    private int attempt;
    private String attemptId;
    private long startedMillis;
    private long startNanos;
    private boolean journaled;
    private Interrupter.Alarm alarm;
    private Attempt.Scope attemptScope;
    private CompletableFuture<Completion> flight;

    /** For a batch tool: each item's plan, in the caller's order. */
    private List<BatchProtocol.ItemPlan> items;
    /** For a batch tool whose body runs: the attempt it runs as, holding the items the body named as it went. */
    private Attempt batchAttempt;
    /** For a batch tool whose body runs: the arguments with only the items to send. */
    private Object[] replacedArgs;

    /**
     * What a concurrent call of the same intent gets instead of this call's own answer; set only when
     * that answer's value quotes a {@code @Redact} secret, so a waiter is answered as a later repeat would be.
     */
    private Completion forWaiters;

    /** The guarded call whose body was running on this thread when this one's body started. */
    private Call enclosing;

    /** What the event sinks keep for this call; null when no sink was interested at its entry. */
    private CallTrace trace;
    /** The path re-entry sent the call on, as the events report it (a probe stays the path when the body follows). */
    private Reentry reentry = Reentry.NEW;

    /** For a tool returning a promise (a future, a Mono, a suspend function): its pending work; else null. */
    private AsyncCall async;

    /** Set when the decision was taken without the body; otherwise set at exit. */
    private Completion completion;

    /** How far the checked steps have gone. */
    private Stage stage = Stage.NEW;

    /** The checked steps of a call, in their only order. */
    enum Stage {
        /** Entered; no key yet. */
        NEW,
        /** Its intent key is known (it may still be replaced by an earlier key of the same intent). */
        KEYED,
        /** An attempt started: the key is fixed. */
        STARTED,
        /** The attempt's intent record is in the journal: an outcome must follow. */
        JOURNALED
    }

    Call(ToolMethod tool, Object self, Object[] args) {
        this.tool = tool;
        this.self = self;
        this.args = args == null ? new Object[0] : args;
    }

    boolean bodySkipped() {
        return completion != null;
    }

    // ---- the steps, in the order a call takes them ----

    /** Its {@code @Redact} arguments are known: every text it writes or hands out goes through {@code r}. */
    void redactWith(Redactor r) {
        redactor = r;
    }

    /** The event sinks that want this call keep {@code t}. */
    void traced(CallTrace t) {
        trace = t;
    }

    /** A tool returning a promise: its pending work. */
    void promised(AsyncCall a) {
        async = a;
    }

    /** The task it runs in (null: called outside any task). */
    void inTask(TaskContext t) {
        require(Stage.NEW, "enter a task");
        task = t;
    }

    /** Its intent key, derived from the task, actor, verb, target and slot (or given by an earlier key). */
    void keyed(String key) {
        if (stage != Stage.NEW && stage != Stage.KEYED) {
            throw outOfOrder("take a key");
        }
        intentKey = key;
        stage = Stage.KEYED;
    }

    /** The target its key was derived from, for the person asked to approve it. */
    void targets(String t) {
        target = t;
    }

    /** The guarded call whose body this one's body runs inside, on this thread. */
    void enclosedBy(Call outer) {
        enclosing = outer;
    }

    /** It runs the intent's body; {@code f} completes with its answer for concurrent calls of the same intent. */
    void joinFlight(CompletableFuture<Completion> f) {
        flight = f;
    }

    /** It no longer leads its intent's flight (answered, or given up before the body). */
    void leaveFlight() {
        flight = null;
    }

    /** Re-entry sent it on {@code path} (new, dedup, probe, held, ...), as the events report it. */
    void tookPath(Reentry path) {
        reentry = path;
    }

    /** The attempt its events name (a probe's event names the attempt it looked for). */
    void nameAttempt(int n) {
        attempt = n;
    }

    /** A batch tool: each item's plan. */
    void planItems(List<BatchProtocol.ItemPlan> plans) {
        items = plans;
    }

    /** Attempt {@code n} starts now: its id, and the clock its duration and deadline are measured from. */
    void started(int n, String id) {
        require(Stage.KEYED, "start an attempt");
        stage = Stage.STARTED;
        attempt = n;
        attemptId = id;
        startedMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
    }

    /** Its intent is in the journal: an outcome must follow. */
    void markJournaled() {
        require(Stage.STARTED, "journal its intent");
        stage = Stage.JOURNALED;
        journaled = true;
    }

    /** A batch tool: the body is sent only {@code replaced}'s items. */
    void sendOnly(Object[] replaced) {
        replacedArgs = replaced;
    }

    /** A batch tool: the attempt its body runs as. */
    void runAs(Attempt a) {
        batchAttempt = a;
    }

    /** {@code Attempt.current()} is this call's while its body runs; {@link #unbindAttempt} ends it. */
    void bindAttempt(Attempt.Scope s) {
        attemptScope = s;
    }

    void unbindAttempt() {
        attemptScope = null;
    }

    /** The deadline that interrupts its body. */
    void arm(Interrupter.Alarm a) {
        alarm = a;
    }

    void disarm() {
        alarm = null;
    }

    /** What waiters on the same intent get instead of this call's own answer (it quotes a secret). */
    void answerWaitersWith(Completion c) {
        forWaiters = c;
    }

    /** Its answer: decided without the body, or at the body's exit. */
    void conclude(Completion c) {
        completion = c;
    }

    private void require(Stage expected, String step) {
        if (stage != expected) {
            throw outOfOrder(step);
        }
    }

    private IllegalStateException outOfOrder(String step) {
        return new IllegalStateException("effectful: call of " + tool.verb() + " cannot " + step + " at stage " + stage);
    }

    /** How far its checked steps have gone. */
    Stage stage() {
        return stage;
    }

    // ---- what the steps set ----

    Redactor redactor() {
        return redactor;
    }

    TaskContext task() {
        return task;
    }

    String target() {
        return target;
    }

    String intentKey() {
        return intentKey;
    }

    int attempt() {
        return attempt;
    }

    String attemptId() {
        return attemptId;
    }

    long startedMillis() {
        return startedMillis;
    }

    long startNanos() {
        return startNanos;
    }

    boolean isJournaled() {
        return journaled;
    }

    Interrupter.Alarm alarm() {
        return alarm;
    }

    Attempt.Scope attemptScope() {
        return attemptScope;
    }

    CompletableFuture<Completion> flight() {
        return flight;
    }

    List<BatchProtocol.ItemPlan> items() {
        return items;
    }

    Attempt batchAttempt() {
        return batchAttempt;
    }

    Object[] replacedArgs() {
        return replacedArgs;
    }

    Completion forWaiters() {
        return forWaiters;
    }

    Call enclosing() {
        return enclosing;
    }

    CallTrace trace() {
        return trace;
    }

    Reentry reentry() {
        return reentry;
    }

    AsyncCall async() {
        return async;
    }

    Completion completion() {
        return completion;
    }
}

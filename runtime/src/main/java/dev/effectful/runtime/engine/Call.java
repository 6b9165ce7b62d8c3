package dev.effectful.runtime.engine;

import dev.effectful.Attempt;
import dev.effectful.runtime.deadline.Interrupter;
import dev.effectful.runtime.tool.ToolMethod;

import java.util.concurrent.CompletableFuture;

/** One call of a tool, from entry to exit: the handle the advice carries between the two. */
final class Call {
    final ToolMethod tool;
    final Object self;
    final Object[] args;

    /** The {@code @Redact} rule for every text this call writes or hands out; {@link Redactor#NONE} for most tools. */
    Redactor redactor = Redactor.NONE;
    TaskContext task;
    String intentKey;
    int attempt;
    String attemptId;
    long startedMillis;
    long startNanos;
    boolean journaled;
    Interrupter.Alarm alarm;
    Attempt.Scope attemptScope;
    CompletableFuture<Completion> flight;

    /** For a batch tool: each item's plan, in the caller's order. */
    java.util.List<BatchProtocol.ItemPlan> items;
    /** For a batch tool whose body runs: the attempt it runs as, holding the items the body named as it went. */
    Attempt batchAttempt;
    /** For a batch tool whose body runs: the arguments with only the items to send. */
    Object[] replacedArgs;

    /**
     * What a concurrent call of the same intent gets instead of this call's own answer; set only when
     * that answer's value quotes a {@code @Redact} secret, so a waiter is answered as a later repeat would be.
     */
    Completion forWaiters;

    /** The guarded call whose body was running on this thread when this one's body started. */
    Call enclosing;

    /** What the event sinks keep for this call; null when no sink was interested at its entry. */
    dev.effectful.runtime.events.CallTrace trace;
    /** The path re-entry sent the call on, as the events report it (a probe stays the path when the body follows). */
    dev.effectful.runtime.events.Reentry reentry = dev.effectful.runtime.events.Reentry.NEW;

    /** For a tool returning a promise (a future, a Mono, a suspend function): its pending work; else null. */
    AsyncCall async;

    /** Set when the decision was taken without the body; otherwise set at exit. */
    Completion completion;

    Call(ToolMethod tool, Object self, Object[] args) {
        this.tool = tool;
        this.self = self;
        this.args = args == null ? new Object[0] : args;
    }

    boolean bodySkipped() {
        return completion != null;
    }
}

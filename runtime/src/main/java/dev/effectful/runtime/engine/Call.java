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
    /** For a batch tool whose body runs: the arguments with only the items to send. */
    Object[] replacedArgs;

    /** The guarded call whose body was running on this thread when this one's body started. */
    Call enclosing;

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

package dev.effectful.runtime.engine;

import dev.effectful.runtime.tool.AsyncShape;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The pending part of one call of a tool that returns a promise ({@link AsyncShape}): what settles it
 * once (its work completing, or the deadline), and what cancels its work. Settled exactly once, on
 * whichever thread gets there first.
 */
final class AsyncCall {

    /** Stands for "answered without the body" while the answer is still to be shaped ({@link AsyncCalls}). */
    static final Completion JOINED = new Completion(null, null);

    final AsyncShape shape;
    /** For a suspend tool: the continuation the caller passed, resumed with the answer. */
    final Object callerContinuation;
    /** For a suspend tool: Kotlin as the tool's class sees it; else null. */
    final KotlinCoroutines kotlin;
    /** For a future or a Mono: what the caller's promise follows; null for a suspend tool. */
    final CompletableFuture<Object> answer;
    private final AtomicBoolean settled = new AtomicBoolean();
    /** Set by the deadline before it cancels the work, so the outcome says why the work ended. */
    volatile boolean deadlineReached;
    /** Cancels the work (the future, the subscription, the coroutine's job); null until known. */
    volatile Runnable cancel;
    volatile ScheduledFuture<?> deadline;
    /** The same intent already running in this process: this call is answered when it settles. */
    CompletableFuture<Completion> joined;

    AsyncCall(AsyncShape shape, Object callerContinuation, KotlinCoroutines kotlin) {
        this.shape = shape;
        this.callerContinuation = callerContinuation;
        this.kotlin = kotlin;
        this.answer = shape == AsyncShape.SUSPEND ? null : new CompletableFuture<>();
    }

    /** Called by admission when the same intent runs here already: no body, the answer follows it. */
    void join(Call call, CompletableFuture<Completion> running) {
        joined = running;
        call.conclude(JOINED);
    }

    /** True for the one caller that settles the call; every later attempt to settle it is dropped. */
    boolean settle() {
        ScheduledFuture<?> d = deadline;
        if (d != null) {
            d.cancel(false);
        }
        return settled.compareAndSet(false, true);
    }
}

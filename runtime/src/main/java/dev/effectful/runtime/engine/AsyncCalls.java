package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.log.AgentLog;
import dev.effectful.runtime.tool.AsyncShape;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The three stages for a tool whose work goes on after its method returned ({@link AsyncShape}: a
 * future, a Mono, a Kotlin suspend function). Admission and the intent record are the blocking
 * tool's, on the caller's thread, before the body starts; the outcome is written when the work
 * settles, on whatever thread that is, through the same {@link Conclusion}. The caller gets the kind
 * of value it would get without the agent: a future or a Mono completing with the value or failing
 * with {@link ToolOutcomeException}, a suspend call resuming with the value or throwing.
 *
 * <p>A call settles once ({@link AsyncCall#settle}): its work completing, or its deadline, which
 * cancels the work (the future, the subscription, the coroutine's job) and records unknown for
 * effectful kinds, as the interrupt does for a blocking body. A promise never reaches the journal.
 *
 * <p>A record of its collaborators: it keeps no state of its own.
 */
record AsyncCalls(Conclusion conclusion, InFlightCalls inFlight, CallRecords records) {

    /**
     * After admission, on the caller's thread: shapes an answer given without the body, or prepares
     * the body's run (a suspend body completes a guarded continuation; the deadline becomes a timer).
     *
     * @param jvmArgs the arguments as the method got them, a suspend function's continuation last
     */
    void admitted(Call call, Object[] jvmArgs) {
        AsyncCall a = call.async();
        if (a.joined != null) {
            call.conclude(joined(call, a.joined));
            return;
        }
        if (call.bodySkipped()) {
            call.conclude(immediate(call, call.completion()));
            return;
        }
        // the thread's alarm would interrupt whatever the thread does after the body returns
        if (call.alarm() != null) {
            if (call.alarm().disarm()) {
                a.deadlineReached = true;
            }
            call.disarm();
        }
        if (a.shape == AsyncShape.SUSPEND) {
            KotlinCoroutines k = a.kotlin;
            Object guarded = k.continuation(k.contextOf(a.callerContinuation), s -> {
                Completion c = settle(call, s.value(), s.failure());
                if (c != null) {
                    // the body's last frame completed on its coroutine's thread: resume the caller there, as Kotlin does
                    k.resume(a.callerContinuation, c.value(), c.thrown(), false);
                }
            });
            Object[] replaced = jvmArgs.clone();
            replaced[replaced.length - 1] = guarded;
            call.sendOnly(replaced);
            a.cancel = () -> k.cancelJob(a.callerContinuation, "effectful: the task's deadline was reached");
        }
        long cap = a.deadlineReached ? 0 : call.task().leftNanos();
        if (call.tool.timeoutMillis() > 0) {
            cap = Math.min(cap, TimeUnit.MILLISECONDS.toNanos(call.tool.timeoutMillis()));
        }
        if (cap != Long.MAX_VALUE) {
            a.deadline = AsyncDeadlines.schedule(cap, () -> expire(call));
        }
    }

    /** After the body returned (or threw), on the caller's thread: what the caller gets now. */
    Completion exit(Call call, Object returned, Throwable thrown) {
        AsyncCall a = call.async();
        if (a.shape == AsyncShape.SUSPEND) {
            KotlinCoroutines k = a.kotlin;
            if (thrown == null && k.isSuspended(returned)) {
                return new Completion(returned, null);
            }
            // it completed without suspending: the answer is returned or thrown, the continuation never resumed
            Completion c = settle(call, returned, thrown);
            // null: the deadline settled it first and resumes the caller through its dispatcher
            return c != null ? c : new Completion(k.suspendedMarker(), null);
        }
        if (thrown != null || returned == null) {
            Completion c = settle(call, null, thrown != null ? thrown
                    : new IllegalStateException(call.tool.verb() + " returned null instead of its " + a.shape.label()));
            if (c != null) {
                deliver(call, c, false);
            }
            return new Completion(promise(call, a.answer), null);
        }
        CompletionStage<?> work;
        if (a.shape == AsyncShape.MONO) {
            CompletableFuture<Object> subscribed = ReactorMonos.of(call.tool.method().getReturnType()).subscribe(returned);
            a.cancel = () -> subscribed.cancel(true);
            work = subscribed;
        } else {
            work = (CompletionStage<?>) returned;
            a.cancel = () -> {
                if (returned instanceof Future<?> f) {
                    f.cancel(true);
                }
            };
        }
        if (a.deadlineReached) {
            a.cancel.run();
        }
        work.whenComplete((v, e) -> {
            Completion c = settle(call, v, e);
            if (c != null) {
                deliver(call, c, false);
            }
        });
        return new Completion(promise(call, a.answer), null);
    }

    /** The deadline: cancel the work, and answer the caller now (a later completion of the work is dropped). */
    private void expire(Call call) {
        AsyncCall a = call.async();
        a.deadlineReached = true;
        Runnable cancel = a.cancel;
        try {
            if (cancel != null) {
                cancel.run();
            }
        } catch (RuntimeException | LinkageError e) {
            AgentLog.warn("effectful could not cancel " + call.tool.verb() + " at its deadline: " + e);
        }
        Completion c = settle(call, null, new CancellationException("the deadline was reached"));
        if (c != null) {
            deliver(call, c, true);
        }
    }

    /**
     * Writes the outcome of the settled work and hands waiters of the intent their answer; null when
     * the call was settled already (the deadline and the work race, one wins).
     */
    private Completion settle(Call call, Object value, Throwable failure) {
        AsyncCall a = call.async();
        if (!a.settle()) {
            return null;
        }
        Throwable cause = unwrap(failure);
        Completion result;
        try {
            result = conclusion.concludeSettled(call, value, cause, a.deadlineReached);
        } catch (RuntimeException | LinkageError e) {
            AgentLog.errorOnce("exit:" + call.tool, "internal error after " + call.tool.verb() + ": " + e, e);
            result = new Completion(value, cause);
            records.events().abandon(call);
        }
        if (call.flight() != null) {
            inFlight.release(call.intentKey(), call.flight(), call.forWaiters() != null ? call.forWaiters() : result);
            call.leaveFlight();
        }
        return result;
    }

    /** Hands a settled answer to the caller's promise, or resumes its coroutine. */
    private void deliver(Call call, Completion c, boolean fromElsewhere) {
        AsyncCall a = call.async();
        try {
            if (a.shape == AsyncShape.SUSPEND) {
                a.kotlin.resume(a.callerContinuation, c.value(), c.thrown(), fromElsewhere);
            } else if (c.thrown() != null) {
                a.answer.completeExceptionally(c.thrown());
            } else {
                a.answer.complete(c.value());
            }
        } catch (RuntimeException | LinkageError e) {
            AgentLog.errorOnce("deliver:" + call.tool, "effectful could not hand " + call.tool.verb()
                    + "'s answer back: " + e, e);
        }
    }

    /** An answer known at once (a repeat's stored value, a refusal, a probe that found it), in the tool's shape. */
    private Completion immediate(Call call, Completion c) {
        AsyncCall a = call.async();
        if (a.shape == AsyncShape.SUSPEND) {
            // a suspend function may return its value without suspending, or throw
            return c;
        }
        if (c.thrown() != null) {
            a.answer.completeExceptionally(c.thrown());
        } else {
            a.answer.complete(c.value());
        }
        return new Completion(promise(call, a.answer), null);
    }

    /** The same intent runs in this process: answered when it settles, without blocking this thread. */
    private Completion joined(Call call, CompletableFuture<Completion> running) {
        AsyncCall a = call.async();
        running.whenComplete((done, e) -> {
            Completion c = done != null ? done : new Completion(null, new ToolOutcomeException(Outcomes.of(call,
                    Status.RETRYABLE, EffectApplied.UNKNOWN, null, null,
                    "the same intent failed inside effectful while this call waited for it; retry")));
            records.events().answeredByConcurrent(call, c);
            if (c.thrown() == null) {
                records.appendQuietly(records.base(call, RecordType.DEDUP).started(System.currentTimeMillis())
                        .message("answered by the concurrent call of the same intent").build());
            }
            deliver(call, c, true);
        });
        if (a.shape == AsyncShape.SUSPEND) {
            return new Completion(a.kotlin.suspendedMarker(), null);
        }
        return new Completion(promise(call, a.answer), null);
    }

    /** What the caller holds: the answer future itself, or a Mono following it. */
    private static Object promise(Call call, CompletableFuture<Object> answer) {
        if (call.async().shape == AsyncShape.MONO) {
            return ReactorMonos.of(call.tool.method().getReturnType()).fromFuture(answer);
        }
        return answer;
    }

    private static Throwable unwrap(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof CompletionException || cur instanceof ExecutionException) && cur.getCause() != null) {
            cur = cur.getCause();
        }
        return cur == null ? null : Outcomes.unwrap(cur);
    }
}

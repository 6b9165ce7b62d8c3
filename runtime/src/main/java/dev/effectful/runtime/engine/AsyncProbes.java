package dev.effectful.runtime.engine;

import dev.effectful.runtime.tool.AsyncShape;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a probe and waits for its answer when the probe is async itself (a Kotlin suspend function,
 * a future, a Mono), so a tool's probe may have the tool's own shape. The decision it feeds is taken
 * before the call goes on, so the wait is bounded and blocks the caller's thread.
 */
final class AsyncProbes {

    /** How long a probe's promise may take; past it the probe failed and the intent stays unknown. */
    static final long WAIT_SECONDS = 60;

    private AsyncProbes() {
    }

    /** The probe's value, its failure as the cause of an {@link InvocationTargetException}. */
    static Object invoke(Method probe, Object self, Object[] args) throws ReflectiveOperationException {
        AsyncShape shape = AsyncShape.of(probe);
        if (shape == null || shape.refused()) {
            return probe.invoke(self, args);
        }
        if (shape == AsyncShape.SUSPEND) {
            KotlinCoroutines k = KotlinCoroutines.of(probe.getDeclaringClass());
            CompletableFuture<Object> done = new CompletableFuture<>();
            // no dispatcher: the caller's thread waits here, so the probe must not need that thread to resume
            Object continuation = k.continuation(k.emptyContext(), s -> {
                if (s.failure() != null) {
                    done.completeExceptionally(s.failure());
                } else {
                    done.complete(s.value());
                }
            });
            Object[] withContinuation = Arrays.copyOf(args, args.length + 1);
            withContinuation[args.length] = continuation;
            Object returned = probe.invoke(self, withContinuation);
            return k.isSuspended(returned) ? await(done) : returned;
        }
        Object returned = probe.invoke(self, args);
        if (returned == null) {
            return null;
        }
        if (shape == AsyncShape.MONO) {
            return await(ReactorMonos.of(probe.getReturnType()).subscribe(returned));
        }
        return await(((CompletionStage<?>) returned).toCompletableFuture());
    }

    private static Object await(CompletableFuture<?> f) throws InvocationTargetException {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new InvocationTargetException(e.getCause());
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new InvocationTargetException(new TimeoutException("no answer within " + WAIT_SECONDS + " s"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InvocationTargetException(e);
        }
    }
}

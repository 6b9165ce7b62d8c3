package dev.effectful.runtime.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Intent keys whose call is running in this process. A second call of the same key waits for the
 * first instead of racing it: never two concurrent runs of one intent.
 */
final class InFlightCalls {

    private final ConcurrentHashMap<String, CompletableFuture<Completion>> running = new ConcurrentHashMap<>();

    /** Null when the caller now owns the key; else the running call's future to wait on. */
    CompletableFuture<Completion> claim(String key, CompletableFuture<Completion> mine) {
        return running.putIfAbsent(key, mine);
    }

    boolean isRunning(String key) {
        return running.containsKey(key);
    }

    void release(String key, CompletableFuture<Completion> mine, Completion result) {
        running.remove(key, mine);
        mine.complete(result);
    }

    /**
     * Settles {@code call} with {@code answer} (the body will not run, or has run) and hands the
     * waiters of its intent what a later repeat would get ({@link Call#forWaiters}) or the same answer.
     */
    void finish(Call call, Completion answer) {
        call.conclude(answer);
        if (call.flight() != null) {
            release(call.intentKey(), call.flight(), call.forWaiters() != null ? call.forWaiters() : answer);
            call.leaveFlight();
        }
    }
}

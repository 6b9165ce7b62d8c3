package dev.effectful.runtime.engine;

import dev.effectful.Task;

import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The task a call belongs to, read once at entry. Outside any task each call is its own implicit
 * task: journaled and classified, never deduplicated against another call.
 *
 * @param remainingNanos budget left at entry; {@link Long#MAX_VALUE} when the task has none
 */
record TaskContext(String id, String actor, boolean implicit, long remainingNanos, long readAtNanos) {

    static TaskContext current() {
        Optional<Task> t = Task.current();
        long now = System.nanoTime();
        if (t.isEmpty()) {
            return new TaskContext("implicit-" + Long.toHexString(ThreadLocalRandom.current().nextLong()), "", true,
                    Long.MAX_VALUE, now);
        }
        Task task = t.get();
        // the wait for the engine's start is not the task's: its budget gets that time back
        return new TaskContext(task.id(), task.actor(), false, StartWaits.remainingNanos(task, now), now);
    }

    boolean hasBudget() {
        return remainingNanos != Long.MAX_VALUE;
    }

    /** Budget left now, never negative; {@link Long#MAX_VALUE} without a budget. */
    long leftNanos() {
        if (!hasBudget()) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, remainingNanos - (System.nanoTime() - readAtNanos));
    }

    /** Whole seconds left, for the journal and the outcome JSON; null without a budget. */
    Long leftSeconds() {
        return hasBudget() ? leftNanos() / 1_000_000_000L : null;
    }
}

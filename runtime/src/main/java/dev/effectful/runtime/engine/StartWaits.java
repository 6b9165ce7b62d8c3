package dev.effectful.runtime.engine;

import dev.effectful.Task;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * The time a task's calls spent waiting for the agent's own start-up, given back to the task's
 * budget. A fresh JVM's first calls wait for the journal to open (Chronicle, Jackson, the index
 * rebuild) and its first tool class for Byte Buddy; that is not the task's work, so it must not bring
 * the task closer to being refused for budget or interrupted. Only the agent adds to it, and only
 * while it starts; afterwards every call pays one volatile read here.
 *
 * <p>Keyed by the {@link Task} object (identity: it does not override equals), weakly, so a closed
 * task's entry goes with it; the credit follows the task onto other threads because the same object
 * does. The task's deadline is taken from the first wait that saw budget left ({@code Task} shows
 * only what remains, clamped at zero); a task with none left when a wait began gets nothing back.
 */
public final class StartWaits {

    /**
     * The task's own deadline (nanoTime), the start-up time given back to it, and up to when: waits
     * that overlap (two threads of one task, a tool class loaded while another is rewritten) count once.
     */
    private record Credit(long deadlineNanos, long creditNanos, long coveredUntilNanos) {
    }

    private static final Map<Task, Credit> CREDITS = new WeakHashMap<>();
    private static volatile boolean any;

    private StartWaits() {
    }

    /**
     * Gives back to {@code task} the time from {@code fromNanos} to now, spent waiting for the agent's
     * start-up, at most {@code capNanos}; {@code remainingThenNanos} is what the task had left at
     * {@code fromNanos}. Nothing when there is no task or it had no budget left then.
     */
    public static void credit(Task task, long fromNanos, long remainingThenNanos, long capNanos) {
        long now = System.nanoTime();
        if (task == null || remainingThenNanos <= 0 || now - fromNanos <= 0) {
            return;
        }
        synchronized (CREDITS) {
            Credit c = CREDITS.get(task);
            if (c == null) {
                c = new Credit(fromNanos + remainingThenNanos, 0, fromNanos);
            }
            long from = fromNanos - c.coveredUntilNanos() < 0 ? c.coveredUntilNanos() : fromNanos;
            long waited = Math.min(Math.max(0, now - from), capNanos);
            CREDITS.put(task, new Credit(c.deadlineNanos(), saturatedSum(c.creditNanos(), waited),
                    now - c.coveredUntilNanos() > 0 ? now : c.coveredUntilNanos()));
            any = true;
        }
    }

    /** What {@code task} has left at {@code nowNanos} with its start-up time given back. */
    public static long remainingNanos(Task task, long nowNanos) {
        if (any) {
            Credit c;
            synchronized (CREDITS) {
                c = CREDITS.get(task);
            }
            if (c != null) {
                return Math.max(0, saturatedSum(c.deadlineNanos() - nowNanos, c.creditNanos()));
            }
        }
        return task.remaining().toNanos();
    }

    /** {@code a + b}, saturated below {@link Long#MAX_VALUE} (the marker of a task without a budget). */
    public static long saturatedSum(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE - 1;
        }
        return sum == Long.MAX_VALUE ? Long.MAX_VALUE - 1 : sum;
    }
}

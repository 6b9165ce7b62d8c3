package dev.effectful.runtime.engine;

import dev.effectful.Task;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * The time a task's calls spent waiting for the engine to start, given back to the task's budget.
 * A fresh JVM's first calls wait for the journal to open (Chronicle, Jackson, the index rebuild);
 * that is the agent's own start-up, not the task's work, so it must not bring the task closer to
 * being refused for budget or interrupted. Only the agent's dispatcher adds to it, and only while
 * the engine is not yet up; afterwards every call pays one volatile read here.
 *
 * <p>Keyed by the {@link Task} object (identity: it does not override equals), weakly, so a closed
 * task's entry goes with it. The credit follows the task onto other threads because the same object
 * does.
 */
public final class StartWaits {

    private static final Map<Task, Long> CREDITS = new WeakHashMap<>();
    private static volatile boolean any;

    private StartWaits() {
    }

    /** Adds {@code nanos} (the time a call of {@code task} waited for the engine) to the task's credit. */
    public static void credit(Task task, long nanos) {
        if (task == null || nanos <= 0) {
            return;
        }
        synchronized (CREDITS) {
            CREDITS.merge(task, nanos, StartWaits::saturatedSum);
            any = true;
        }
    }

    /** The budget {@code task} gets back; 0 for a task that never waited for the start. */
    static long creditOf(Task task) {
        if (!any) {
            return 0;
        }
        synchronized (CREDITS) {
            return CREDITS.getOrDefault(task, 0L);
        }
    }

    /** {@code a + b}, saturated below {@link Long#MAX_VALUE} (the marker of a task without a budget). */
    public static long saturatedSum(long a, long b) {
        long sum = a + b;
        // never Long.MAX_VALUE: that marks a task without a budget
        return sum < 0 || sum == Long.MAX_VALUE ? Long.MAX_VALUE - 1 : sum;
    }
}

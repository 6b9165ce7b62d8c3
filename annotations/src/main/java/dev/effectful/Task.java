package dev.effectful;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The durable identity of a piece of work (the order the user asked for), with one wall-clock
 * budget that every tool call in it spends from.
 *
 * <!-- compile: statements | given: interface Assistant { String chat(String message); } Assistant assistant; String userMessage; -->
 * <pre>{@code
 * try (Task task = Task.open("ord-7741", "alice", Duration.ofSeconds(60))) {
 *     assistant.chat(userMessage);       // every @EffectfulTool call inside is part of ord-7741
 * }
 * }</pre>
 *
 * <p>The task id must be stable across retries and restarts (a conversation or order id, never a
 * run id): the intent key is derived from it, so a task resumed by a new process the next morning
 * recognises what its predecessor did. A scope opened inside another keeps the outer deadline when
 * that one is sooner. With the agent, the task follows the work onto executor threads,
 * {@code CompletableFuture} async stages, fork/join tasks and virtual threads; {@link #wrap} binds
 * it for anything else. Without the agent this class is a plain context holder.
 */
public final class Task implements AutoCloseable {

    private static final ThreadLocal<Task> CURRENT = new ThreadLocal<>();

    private final String id;
    private final String actor;
    private final long deadlineNanos;
    private final Task previous;
    private final Thread opener;

    private Task(String id, String actor, long deadlineNanos, Task previous, Thread opener) {
        this.id = id;
        this.actor = actor;
        this.deadlineNanos = deadlineNanos;
        this.previous = previous;
        this.opener = opener;
    }

    /** Opens a task scope with no actor on the current thread. */
    public static Task open(String taskId, Duration budget) {
        return open(taskId, "", budget);
    }

    /**
     * Opens a task scope on the current thread; close it (try-with-resources) to restore what was
     * current before.
     *
     * @param taskId the durable id of the work; not blank
     * @param actor  who acts (a user or tenant id), part of every intent key; null means none
     * @param budget the wall-clock budget of the whole task; positive
     */
    public static Task open(String taskId, String actor, Duration budget) {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(budget, "budget");
        if (taskId.isBlank()) {
            throw new IllegalArgumentException("taskId must not be blank");
        }
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("budget must be positive, was " + budget);
        }
        long now = System.nanoTime();
        long deadline = now + saturatedNanos(budget);
        Task outer = CURRENT.get();
        if (outer != null && outer.deadlineNanos - deadline < 0) {
            deadline = outer.deadlineNanos;
        }
        Task task = new Task(taskId, actor == null ? "" : actor, deadline, outer, Thread.currentThread());
        CURRENT.set(task);
        return task;
    }

    /** The task bound to the current thread, if any. */
    public static Optional<Task> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** The task's durable id. */
    public String id() {
        return id;
    }

    /** Who acts; empty when nobody was named. */
    public String actor() {
        return actor;
    }

    /** Budget left before the task's deadline; zero once it has passed. */
    public Duration remaining() {
        long left = deadlineNanos - System.nanoTime();
        return left <= 0 ? Duration.ZERO : Duration.ofNanos(left);
    }

    /** Restores the task that was current when this scope was opened, on the opening thread. */
    @Override
    public void close() {
        if (Thread.currentThread() == opener && CURRENT.get() == this) {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /**
     * Binds the caller's current task to {@code work}, for executors the agent does not know.
     * Returns {@code work} itself when no task is current.
     */
    public static Runnable wrap(Runnable work) {
        Task task = CURRENT.get();
        if (task == null || work == null || work instanceof BoundRunnable) {
            return work;
        }
        return new BoundRunnable(task, work);
    }

    /**
     * Binds the caller's current task to {@code work}, for executors the agent does not know.
     * Returns {@code work} itself when no task is current.
     */
    public static <V> Callable<V> wrap(Callable<V> work) {
        Task task = CURRENT.get();
        if (task == null || work == null || work instanceof BoundCallable) {
            return work;
        }
        return new BoundCallable<>(task, work);
    }

    @Override
    public String toString() {
        return "Task[" + id + (actor.isEmpty() ? "" : ", actor=" + actor) + ", remaining=" + remaining() + "]";
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 2;
        }
    }

    private static Task bind(Task task) {
        Task before = CURRENT.get();
        CURRENT.set(task);
        return before;
    }

    private static void restore(Task before) {
        if (before == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(before);
        }
    }

    private record BoundRunnable(Task task, Runnable work) implements Runnable {
        @Override
        public void run() {
            Task before = bind(task);
            try {
                work.run();
            } finally {
                restore(before);
            }
        }
    }

    private record BoundCallable<V>(Task task, Callable<V> work) implements Callable<V> {
        @Override
        public V call() throws Exception {
            Task before = bind(task);
            try {
                return work.call();
            } finally {
                restore(before);
            }
        }
    }
}

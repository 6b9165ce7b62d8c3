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
 * {@code CompletableFuture} async and delayed stages, fork/join tasks, {@code java.util.Timer} tasks and
 * virtual threads; {@link #wrap} binds it for anything else, and {@code effectful-kotlin}'s context
 * element for Kotlin coroutines. Without the agent this class is a plain context holder.
 *
 * <p>{@link #close()} ends the task for every thread, whichever thread calls it: a thread that still
 * has it bound (the thread that opened it, when the work moved on and was closed elsewhere) sees the
 * nearest enclosing task that is still open, or none. So a pooled thread never hands a finished
 * conversation's task to the next piece of work it runs.
 */
public final class Task implements AutoCloseable {

    private static final ThreadLocal<Task> CURRENT = new ThreadLocal<>();

    private final String id;
    private final String actor;
    private final long deadlineNanos;
    private final Task previous;
    /** Set once by {@link #close()}, read by every thread that has this task bound. */
    private volatile boolean closed;

    private Task(String id, String actor, long deadlineNanos, Task previous) {
        this.id = id;
        this.actor = actor;
        this.deadlineNanos = deadlineNanos;
        this.previous = previous;
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
        Task outer = live();
        if (outer != null && outer.deadlineNanos - deadline < 0) {
            deadline = outer.deadlineNanos;
        }
        Task task = new Task(taskId, actor == null ? "" : actor, deadline, outer);
        CURRENT.set(task);
        return task;
    }

    /** The task bound to the current thread, if any; a closed one never is. */
    public static Optional<Task> current() {
        return Optional.ofNullable(live());
    }

    /**
     * The bound task, skipping closed ones. A closed binding is replaced on the spot by what it
     * enclosed: the thread lets go of the finished task (its memory, and any chance of it resurfacing).
     */
    private static Task live() {
        Task bound = CURRENT.get();
        if (bound == null || !bound.closed) {
            return bound;
        }
        Task open = openOuter(bound);
        restore(open);
        return open;
    }

    /** {@code task} itself, or the nearest task it was opened in that is still open; null when none is. */
    private static Task openOuter(Task task) {
        Task t = task;
        while (t != null && t.closed) {
            t = t.previous;
        }
        return t;
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

    /**
     * Ends the task, from any thread: no thread sees it as current afterwards. The calling thread,
     * when it has this task bound, is back to the task that was current when it was opened (if that
     * one is still open); every other thread that still has it bound lets go of it the next time
     * it asks. Closing twice does nothing more.
     */
    @Override
    public void close() {
        closed = true;
        if (CURRENT.get() == this) {
            restore(openOuter(previous));
        }
    }

    /**
     * Binds the caller's current task to {@code work}, for executors the agent does not know.
     * Returns {@code work} itself when no task is current.
     */
    public static Runnable wrap(Runnable work) {
        Task task = live();
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
        Task task = live();
        if (task == null || work == null || work instanceof BoundCallable) {
            return work;
        }
        return new BoundCallable<>(task, work);
    }

    @Override
    public String toString() {
        return "Task[" + id + (actor.isEmpty() ? "" : ", actor=" + actor) + ", remaining=" + remaining() + "]";
    }

    /**
     * Makes {@code task} (null: none) current on the calling thread and returns what was bound
     * before, to be handed back to {@link #exit}: for a scheduler that moves one piece of work
     * between threads by itself, such as a Kotlin coroutine dispatcher (the {@code effectful-kotlin}
     * context element uses this pair). Executors the agent knows, and {@link #wrap}, need neither.
     * A closed task may be entered: the thread sees it as it sees any closed task, as none.
     */
    public static Task enter(Task task) {
        return bind(task);
    }

    /** Puts back what {@link #enter} returned, on the same thread. */
    public static void exit(Task before) {
        restore(before);
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
        restore(task);
        return before;
    }

    /**
     * Binds {@code task} to this thread; null leaves the thread without one (and the thread-local's entry gone).
     * The agent's {@code TaskCarrier} finds this method, and {@link #bind}, by name.
     */
    private static void restore(Task task) {
        if (task == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(task);
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

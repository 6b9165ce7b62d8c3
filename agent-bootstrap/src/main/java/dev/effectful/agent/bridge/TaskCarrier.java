package dev.effectful.agent.bridge;

import dev.effectful.Task;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.FutureTask;

/**
 * Carries the current {@link Task} from the thread that submits work to the thread that runs it.
 * Called from advice inlined into {@code java.base} executors, so it lives on the bootstrap path
 * and uses JDK types only.
 *
 * <p>Plain runnables and callables are wrapped with {@link Task#wrap}. A {@link ForkJoinTask} or
 * {@link FutureTask} is not: a pool runs the very object it was given and applications rely on
 * that identity ({@code afterExecute(r, t)} checking {@code r instanceof Future}, {@code join()} on a
 * forked task), so the task is remembered against the object here and bound around its run.
 * Entries are weak (work that is never run does not pin it) and removed when the work starts.
 * Nothing is inherited: a thread that runs work submitted outside any task sees no task.
 */
public final class TaskCarrier {

    /** Returned by {@link #enter} when a task was bound over a thread that had none. */
    private static final Object NONE = new Object();

    private static final ConcurrentHashMap<Key, Task> CAPTURED = new ConcurrentHashMap<>();
    private static final ReferenceQueue<Object> COLLECTED = new ReferenceQueue<>();

    private TaskCarrier() {
    }

    /** For executors whose workers run a {@code FutureTask} as itself (thread pools, virtual threads). */
    public static Runnable submitted(Runnable work) {
        if (work instanceof FutureTask<?>) {
            capture(work);
            return work;
        }
        return Task.wrap(work);
    }

    /** For a {@code ForkJoinPool}, which runs a {@code ForkJoinTask} given to it as itself. */
    public static Runnable submittedToForkJoin(Runnable work) {
        if (work instanceof ForkJoinTask<?> || work instanceof FutureTask<?>) {
            capture(work);
            return work;
        }
        return Task.wrap(work);
    }

    /** Remembers the caller's task for {@code work}, to be bound when it runs. No task: nothing. */
    public static void capture(Object work) {
        Task task = Task.current().orElse(null);
        if (task == null || work == null) {
            return;
        }
        expungeCollected();
        CAPTURED.put(new Key(work, COLLECTED), task);
    }

    /**
     * Binds the task captured for {@code work}, if any, on the running thread.
     *
     * @return what {@link #exit} needs to restore the thread; null when nothing was bound
     */
    public static Object enter(Object work) {
        if (CAPTURED.isEmpty()) {
            return null;
        }
        Task task = CAPTURED.remove(new Key(work, null));
        if (task == null) {
            return null;
        }
        Task before = Binder.bind(task);
        return before == null ? NONE : before;
    }

    /** Restores what the thread had before {@link #enter}. */
    public static void exit(Object token) {
        if (token != null) {
            Binder.restore(token == NONE ? null : (Task) token);
        }
    }

    private static void expungeCollected() {
        Object stale;
        while ((stale = COLLECTED.poll()) != null) {
            CAPTURED.remove(stale);
        }
    }

    /**
     * An identity key that does not keep its work alive. A lookup key (no queue) equals the stored
     * key of the same object, so {@code remove} needs no scan.
     */
    private static final class Key extends WeakReference<Object> {
        private final int hash;

        Key(Object work, ReferenceQueue<Object> queue) {
            super(work, queue);
            this.hash = System.identityHashCode(work);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Key k)) {
                return false;
            }
            Object mine = get();
            return mine != null && mine == k.get();
        }
    }

    /**
     * Task keeps its thread-local private so applications cannot corrupt it; the carrier, in the
     * same (bootstrap unnamed) module, reaches its bind/restore pair through a private lookup.
     */
    private static final class Binder {
        private static final MethodHandle BIND;
        private static final MethodHandle RESTORE;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.privateLookupIn(Task.class, MethodHandles.lookup());
                BIND = l.findStatic(Task.class, "bind", MethodType.methodType(Task.class, Task.class));
                RESTORE = l.findStatic(Task.class, "restore", MethodType.methodType(void.class, Task.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        static Task bind(Task task) {
            try {
                return (Task) BIND.invokeExact(task);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        static void restore(Task before) {
            try {
                RESTORE.invokeExact(before);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
    }
}

package dev.effectful.agent.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Optional;
import java.util.TimerTask;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.FutureTask;

/**
 * Carries the current {@code dev.effectful.Task} from the thread that submits work to the thread that runs it.
 * Called from advice inlined into {@code java.base} executors, so it lives on the bootstrap path
 * and uses JDK types only.
 *
 * <p>Plain runnables and callables are wrapped with {@code Task.wrap}. A {@link ForkJoinTask} or
 * {@link FutureTask} is not: a pool runs the very object it was given and applications rely on
 * that identity ({@code afterExecute(r, t)} checking {@code r instanceof Future}, {@code join()} on a
 * forked task), so the task is remembered against the object here and bound around its run.
 * Entries are weak (work that is never run does not pin it) and removed when the work starts.
 * Nothing is inherited: a thread that runs work submitted outside any task sees no task.
 *
 * <p>A {@link TimerTask} may run many times (a periodic schedule), so its task is kept, not removed, when
 * a run starts ({@link #captureRepeating}, {@link #runTimerTask}); the weak key lets it go with the
 * TimerTask. A task closed meanwhile is bound as it is, and a closed task is no task to whoever asks.
 */
public final class TaskCarrier {

    /** Returned by {@link #enter} when a task was bound over a thread that had none. */
    private static final Object NONE = new Object();

    private static final ConcurrentHashMap<Key, Object> CAPTURED = new ConcurrentHashMap<>();
    private static final ReferenceQueue<Object> COLLECTED = new ReferenceQueue<>();

    private TaskCarrier() {
    }

    /** For executors whose workers run a {@code FutureTask} as itself (thread pools, virtual threads). */
    public static Runnable submitted(Runnable work) {
        if (work instanceof FutureTask<?>) {
            capture(work);
            return work;
        }
        return TaskApi.wrap(work);
    }

    /** For a {@code ForkJoinPool}, which runs a {@code ForkJoinTask} given to it as itself. */
    public static Runnable submittedToForkJoin(Runnable work) {
        if (work instanceof ForkJoinTask<?> || work instanceof FutureTask<?>) {
            capture(work);
            return work;
        }
        return TaskApi.wrap(work);
    }

    /** Remembers the caller's task for {@code work}, to be bound when it runs. No task: nothing. */
    public static void capture(Object work) {
        remember(work, false);
    }

    /**
     * Remembers the caller's task for work that may run many times, for as long as the work lives. A
     * second capture for the same work (a TimerTask scheduled twice, which the Timer then refuses) keeps the first.
     */
    public static void captureRepeating(Object work) {
        remember(work, true);
    }

    /** Remembers the caller's task, if any, for {@code work}: in place of an earlier capture, or behind it ({@code keepFirst}). */
    private static void remember(Object work, boolean keepFirst) {
        Object task = TaskApi.current();
        if (task == null || work == null) {
            return;
        }
        expungeCollected();
        Key key = new Key(work, COLLECTED);
        if (keepFirst) {
            CAPTURED.putIfAbsent(key, task);
        } else {
            CAPTURED.put(key, task);
        }
    }

    /**
     * Runs a TimerTask with the task captured when it was scheduled bound, then restores the timer
     * thread. Replaces the timer thread's own {@code task.run()}: what the TimerTask throws goes on as
     * before; a fault of the carrier never stops the run.
     */
    public static void runTimerTask(TimerTask work) {
        Object token = null;
        try {
            token = enterRepeating(work);
        } catch (Throwable fault) {
            // the work runs without its task rather than not at all
        }
        try {
            work.run();
        } finally {
            try {
                exit(token);
            } catch (Throwable fault) {
                // as above: the timer thread must keep running its queue
            }
        }
    }

    private static Object enterRepeating(Object work) {
        return bind(work, false);
    }

    /**
     * Binds the task captured for {@code work}, if any, on the running thread.
     *
     * @return what {@link #exit} needs to restore the thread; null when nothing was bound
     */
    public static Object enter(Object work) {
        return bind(work, true);
    }

    /** Binds the task captured for {@code work}: used up by a one-shot run ({@code once}), kept for a repeating one. */
    private static Object bind(Object work, boolean once) {
        if (CAPTURED.isEmpty()) {
            return null;
        }
        Key key = new Key(work, null);
        Object task = once ? CAPTURED.remove(key) : CAPTURED.get(key);
        if (task == null) {
            return null;
        }
        Object before = TaskApi.bind(task);
        return before == null ? NONE : before;
    }

    /** Restores what the thread had before {@link #enter}. */
    public static void exit(Object token) {
        if (token != null) {
            TaskApi.restore(token == NONE ? null : token);
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
     * The API's {@code Task}, reached through method handles: this class is built with nothing but
     * the JDK on its class path (module agent-bootstrap), so a stray dependency cannot creep into the
     * bootstrap loader. The handles are resolved once, from this class's own loader, which is where
     * the API lives next to it (the bootstrap loader, or the system loader in tests). Task keeps its
     * thread-local private so applications cannot corrupt it; the carrier, in the same (bootstrap
     * unnamed) module, reaches its bind/restore pair through a private lookup.
     */
    private static final class TaskApi {
        private static final MethodHandle CURRENT;
        private static final MethodHandle WRAP;
        private static final MethodHandle BIND;
        private static final MethodHandle RESTORE;

        static {
            try {
                Class<?> task = Class.forName("dev.effectful.Task", false, TaskCarrier.class.getClassLoader());
                MethodHandles.Lookup l = MethodHandles.privateLookupIn(task, MethodHandles.lookup());
                CURRENT = l.findStatic(task, "current", MethodType.methodType(Optional.class));
                WRAP = l.findStatic(task, "wrap", MethodType.methodType(Runnable.class, Runnable.class));
                BIND = l.findStatic(task, "bind", MethodType.methodType(task, task))
                        .asType(MethodType.methodType(Object.class, Object.class));
                RESTORE = l.findStatic(task, "restore", MethodType.methodType(void.class, task))
                        .asType(MethodType.methodType(void.class, Object.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The caller's task, or null. */
        static Object current() {
            try {
                return ((Optional<?>) CURRENT.invokeExact()).orElse(null);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        static Runnable wrap(Runnable work) {
            try {
                return (Runnable) WRAP.invokeExact(work);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        static Object bind(Object task) {
            try {
                return (Object) BIND.invokeExact(task);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        static void restore(Object before) {
            try {
                RESTORE.invokeExact(before);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        /** What Task itself throws (a null work, say) reaches the caller as it would without the handle. */
        private static RuntimeException rethrow(Throwable t) {
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException(t);
        }
    }
}

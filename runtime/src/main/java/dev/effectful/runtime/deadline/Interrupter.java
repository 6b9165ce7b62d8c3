package dev.effectful.runtime.deadline;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Interrupts a calling thread when its call outlives min(task deadline, per-attempt timeout).
 * Cancel, don't orphan: the body sees the interrupt where it blocks, and the engine records the
 * attempt as unknown (the effect may yet land) instead of leaving it to run unobserved.
 *
 * <p>Arming is on every guarded call's path, so it is a set insertion, not a scheduled task: one
 * watchdog thread scans the armed alarms every few milliseconds while there are any, and sleeps
 * while there are none.
 */
public final class Interrupter implements AutoCloseable {

    /** How late an interrupt may come at most; well inside the 200 ms users are promised. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** How long the watchdog keeps ticking with nothing armed before it sleeps until the next arm. */
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Set<Alarm> armed = ConcurrentHashMap.newKeySet();
    private final Thread watchdog;
    /** True only while the watchdog sleeps untimed: then, and only then, an arm must wake it. */
    private volatile boolean asleep;
    private volatile boolean closed;

    public Interrupter() {
        watchdog = new Thread(this::watch, "effectful-deadline");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** Arms an interrupt of {@code thread} after {@code delayNanos}. */
    public Alarm arm(Thread thread, long delayNanos) {
        Alarm alarm = new Alarm(thread, System.nanoTime() + Math.max(0, delayNanos), armed);
        armed.add(alarm);
        if (asleep) {
            // waking a thread per call would cost more than the call's own journal writes
            LockSupport.unpark(watchdog);
        }
        return alarm;
    }

    private void watch() {
        long idleSince = System.nanoTime();
        while (!closed) {
            long now = System.nanoTime();
            if (armed.isEmpty()) {
                if (now - idleSince > IDLE_NANOS) {
                    asleep = true;
                    if (armed.isEmpty()) {
                        LockSupport.park(this);
                    }
                    asleep = false;
                    idleSince = System.nanoTime();
                    continue;
                }
                LockSupport.parkNanos(this, TICK_NANOS);
                continue;
            }
            idleSince = now;
            for (Alarm a : armed) {
                if (now - a.deadlineNanos >= 0) {
                    a.fire();
                }
            }
            LockSupport.parkNanos(this, TICK_NANOS);
        }
    }

    /** Ends the watchdog thread; alarms still armed never fire. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(watchdog);
    }

    /** One armed interrupt. Its state machine makes sure it never interrupts a thread that moved on. */
    public static final class Alarm {
        private static final int ARMED = 0;
        private static final int FIRING = 1;
        private static final int FIRED = 2;
        private static final int DISARMED = 3;

        private final Thread thread;
        private final long deadlineNanos;
        private final Set<Alarm> owner;
        private final AtomicInteger state = new AtomicInteger(ARMED);

        private Alarm(Thread thread, long deadlineNanos, Set<Alarm> owner) {
            this.thread = thread;
            this.deadlineNanos = deadlineNanos;
            this.owner = owner;
        }

        private void fire() {
            owner.remove(this);
            if (state.compareAndSet(ARMED, FIRING)) {
                try {
                    thread.interrupt();
                } finally {
                    state.set(FIRED);
                }
            }
        }

        /**
         * Stops the alarm; call on the calling thread when the body is done.
         *
         * @return true when the alarm had fired (the interrupt, ours, has been cleared)
         */
        public boolean disarm() {
            owner.remove(this);
            if (state.compareAndSet(ARMED, DISARMED)) {
                return false;
            }
            // The timer may have won the race but not yet delivered the interrupt: wait for it, or it
            // would land after this call, on whatever the thread does next.
            while (state.get() == FIRING) {
                Thread.onSpinWait();
            }
            Thread.interrupted();
            return true;
        }
    }
}

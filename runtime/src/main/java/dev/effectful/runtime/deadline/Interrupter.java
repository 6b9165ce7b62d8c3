package dev.effectful.runtime.deadline;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Interrupts a calling thread when its call outlives min(task deadline, per-attempt timeout).
 * Cancel, don't orphan: the body sees the interrupt where it blocks, and the engine records the
 * attempt as unknown (the effect may yet land) instead of leaving it to run unobserved.
 */
public final class Interrupter {

    private final ScheduledThreadPoolExecutor timer;

    public Interrupter() {
        timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "effectful-deadline");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /** Arms an interrupt of {@code thread} after {@code delayNanos}. */
    public Alarm arm(Thread thread, long delayNanos) {
        Alarm alarm = new Alarm(thread);
        alarm.future = timer.schedule(alarm::fire, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        return alarm;
    }

    /** One armed interrupt. Its state machine makes sure it never interrupts a thread that moved on. */
    public static final class Alarm {
        private static final int ARMED = 0;
        private static final int FIRING = 1;
        private static final int FIRED = 2;
        private static final int DISARMED = 3;

        private final Thread thread;
        private final AtomicInteger state = new AtomicInteger(ARMED);
        private volatile ScheduledFuture<?> future;

        private Alarm(Thread thread) {
            this.thread = thread;
        }

        private void fire() {
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
            if (state.compareAndSet(ARMED, DISARMED)) {
                ScheduledFuture<?> f = future;
                if (f != null) {
                    f.cancel(false);
                }
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

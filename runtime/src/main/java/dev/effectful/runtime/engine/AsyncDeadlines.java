package dev.effectful.runtime.engine;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The deadline of calls whose work goes on after their method returned: no thread to interrupt, so
 * a timer cancels the work instead. One daemon thread, started by the first async call with a
 * deadline; a cancelled timer is removed at once, so settled calls leave nothing behind.
 */
final class AsyncDeadlines {

    private AsyncDeadlines() {
    }

    private static final class Holder {
        static final ScheduledThreadPoolExecutor TIMER = timer();

        private static ScheduledThreadPoolExecutor timer() {
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
                Thread thread = new Thread(r, "effectful-async-deadline");
                thread.setDaemon(true);
                return thread;
            });
            t.setRemoveOnCancelPolicy(true);
            return t;
        }
    }

    static ScheduledFuture<?> schedule(long delayNanos, Runnable expire) {
        return Holder.TIMER.schedule(expire, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }
}

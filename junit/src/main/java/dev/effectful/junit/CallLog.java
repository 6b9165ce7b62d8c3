package dev.effectful.junit;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the guarded views saw: which tool methods were called with what, what the body received
 * (a batch gets only the items still to send), and whether two bodies of a tool ever ran at once.
 */
final class CallLog {

    /** One guarded call. {@code bodyArgs} is null when the engine decided without running the body. */
    record Entry(Method method, Object[] args, Object[] bodyArgs) {
    }

    /**
     * One body the kit ran: when it started, the deadline the engine's alarm was armed for (min of the
     * task's and the tool's {@code timeoutMillis}; {@link Long#MAX_VALUE} without either), when it ended.
     */
    static final class Body {
        final long startNanos;
        final long deadlineNanos;
        private volatile long endNanos;
        private volatile boolean ended;

        private Body(long startNanos, long deadlineNanos) {
            this.startNanos = startNanos;
            this.deadlineNanos = deadlineNanos;
        }

        boolean ended() {
            return ended;
        }

        /** How long past its deadline the body ran (until now if it still runs); 0 if it ended in time. */
        long overshootNanos() {
            if (deadlineNanos == Long.MAX_VALUE) {
                return 0;
            }
            long end = ended ? endNanos : System.nanoTime();
            return Math.max(0, end - deadlineNanos);
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private final List<Body> bodies = new ArrayList<>();
    private final AtomicInteger running = new AtomicInteger();
    private volatile int mostAtOnce;

    synchronized void add(Entry e) {
        entries.add(e);
    }

    synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    synchronized int size() {
        return entries.size();
    }

    Body bodyStarted(long deadlineNanos) {
        int now = running.incrementAndGet();
        Body b = new Body(System.nanoTime(), deadlineNanos);
        synchronized (this) {
            mostAtOnce = Math.max(mostAtOnce, now);
            bodies.add(b);
        }
        return b;
    }

    void bodyEnded(Body b) {
        b.endNanos = System.nanoTime();
        b.ended = true;
        running.decrementAndGet();
    }

    /** How many bodies are running now. */
    int running() {
        return running.get();
    }

    /** The body that ran furthest past its deadline, if any did. */
    synchronized Optional<Body> latestPastDeadline() {
        return bodies.stream().filter(b -> b.overshootNanos() > 0)
                .max(Comparator.comparingLong(Body::overshootNanos));
    }

    /** The most bodies of guarded tools that ran at the same moment. */
    int mostAtOnce() {
        return mostAtOnce;
    }
}

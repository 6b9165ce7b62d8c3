package dev.effectful.junit;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the guarded views saw: which tool methods were called with what, what the body received
 * (a batch gets only the items still to send), and whether two bodies of a tool ever ran at once.
 */
final class CallLog {

    /** One guarded call. {@code bodyArgs} is null when the engine decided without running the body. */
    record Entry(Method method, Object[] args, Object[] bodyArgs) {
    }

    private final List<Entry> entries = new ArrayList<>();
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

    void bodyStarted() {
        int now = running.incrementAndGet();
        synchronized (this) {
            mostAtOnce = Math.max(mostAtOnce, now);
        }
    }

    void bodyEnded() {
        running.decrementAndGet();
    }

    /** The most bodies of guarded tools that ran at the same moment. */
    int mostAtOnce() {
        return mostAtOnce;
    }
}

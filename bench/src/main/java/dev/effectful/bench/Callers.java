package dev.effectful.bench;

import java.util.concurrent.atomic.AtomicInteger;

/** Per-thread argument source shared by every comparator, so each builds the same fresh arguments. */
final class Callers {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private Callers() {
    }

    /** A prefix unique to the calling benchmark thread within the fork. */
    static String threadPrefix() {
        return "t" + THREADS.getAndIncrement() + "-";
    }

    static String recipient(String prefix, long n) {
        return prefix + n + "@example.com";
    }
}

package dev.effectful.agent.installer;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class StartupQuietTest {

    private static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(StartupQuiet.WINDOW_MILLIS);

    @Test
    void aWindowIsQuietOnlyWithFewClassesAndLittleCpu() {
        assertThat(StartupQuiet.isQuiet(0, 0)).isTrue();
        assertThat(StartupQuiet.isQuiet(StartupQuiet.QUIET_CLASSES - 1, WINDOW_NANOS / 4)).isTrue();
        // a start loading classes
        assertThat(StartupQuiet.isQuiet(StartupQuiet.QUIET_CLASSES, 0)).isFalse();
        // a start building its schema: no classes, a busy core
        assertThat(StartupQuiet.isQuiet(0, WINDOW_NANOS / 2)).isFalse();
        // where the CPU time cannot be read, the classes alone decide
        assertThat(StartupQuiet.isQuiet(3, -1)).isTrue();
        assertThat(StartupQuiet.isQuiet(500, -1)).isFalse();
    }

    @Test
    void readsUserAndSystemTimeEvenWhenTheCommandNameHoldsSpacesAndParentheses() {
        String stat = "4242 (my (odd) app) S 1 4242 4242 0 -1 4194560 1200 0 0 0 150 37 0 0 20 0 30 0 100 0 0";
        assertThat(StartupQuiet.cpuNanos(stat)).isEqualTo((150 + 37) * 10_000_000L);
    }

    @Test
    void thisProcessCpuTimeIsReadAndGrows() {
        long before = StartupQuiet.processCpuNanos();
        assertThat(before).isPositive();
        long x = 0;
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        while (System.nanoTime() < until) {
            x += Long.numberOfTrailingZeros(System.nanoTime());
        }
        assertThat(x).isNotNegative();
        assertThat(StartupQuiet.processCpuNanos()).isGreaterThan(before);
    }

    @Test
    void aBusyStartIsWaitedForUntilACallNeedsTheEngine() throws Exception {
        StartupQuiet quiet = new StartupQuiet();
        AtomicBoolean loading = new AtomicBoolean(true);
        Thread app = new Thread(() -> {
            // an application start: classes pass the transformer faster than the quiet allows
            while (loading.get()) {
                quiet.classSeen();
                Thread.onSpinWait();
            }
        });
        app.start();
        CountDownLatch needed = new CountDownLatch(1);
        CountDownLatch returned = new CountDownLatch(1);
        Thread starter = new Thread(() -> {
            try {
                quiet.await(needed, "test");
                returned.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            starter.start();
            assertThat(returned.await(5 * StartupQuiet.WINDOW_MILLIS, TimeUnit.MILLISECONDS))
                    .as("the start waits while the application loads classes").isFalse();
            needed.countDown();
            assertThat(returned.await(2, TimeUnit.SECONDS)).as("a call that needs the engine ends the wait").isTrue();
        } finally {
            loading.set(false);
            app.join();
            starter.interrupt();
            starter.join();
        }
    }

    @Test
    void anIdleApplicationIsQuietWithinAFewWindows() throws Exception {
        StartupQuiet quiet = new StartupQuiet();
        long t0 = System.nanoTime();
        quiet.await(new CountDownLatch(1), "test");
        // far below the longest wait: an idle JVM is quiet at its first or second window
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(StartupQuiet.LONGEST_WAIT_MILLIS / 3);
    }
}

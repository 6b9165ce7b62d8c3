package dev.effectful.runtime.engine;

import dev.effectful.Task;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up time given back to a task: never more than it waited, once per instant, never to a spent task. */
class StartWaitsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long CAP = TimeUnit.SECONDS.toNanos(10);

    @Test
    void aTaskThatWaitedForTheStartHasItsBudgetAsBeforeTheWait() {
        try (Task task = Task.open("t-waited", Duration.ofMinutes(1))) {
            long now = System.nanoTime();
            // the call began waiting 300 ms ago with 500 ms left: given back, it still has about 500 ms
            StartWaits.credit(task, now - 300 * MS, 500 * MS, CAP);
            long left = StartWaits.remainingNanos(task, System.nanoTime());
            assertThat(left).isBetween(400 * MS, 500 * MS);
        }
    }

    @Test
    void overlappingWaitsOfOneTaskCountOnce() {
        try (Task task = Task.open("t-overlap", Duration.ofMinutes(1))) {
            long now = System.nanoTime();
            StartWaits.credit(task, now - 300 * MS, 500 * MS, CAP);
            // a second wait that began before the first ended (another thread, a nested class load)
            StartWaits.credit(task, now - 400 * MS, 600 * MS, CAP);
            assertThat(StartWaits.remainingNanos(task, System.nanoTime())).isBetween(400 * MS, 500 * MS);
        }
    }

    @Test
    void aTaskWithNoBudgetLeftWhenItBeganWaitingGetsNothingBack() {
        try (Task task = Task.open("t-spent", Duration.ofMillis(1))) {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!task.remaining().isZero() && System.nanoTime() - until < 0) {
                Thread.onSpinWait(); // a 1 ms budget: spent within a moment
            }
            StartWaits.credit(task, System.nanoTime() - 300 * MS, task.remaining().toNanos(), CAP);
            assertThat(StartWaits.remainingNanos(task, System.nanoTime())).isZero();
        }
    }

    @Test
    void onlyUpToTheCapIsGivenBack() {
        try (Task task = Task.open("t-capped", Duration.ofMinutes(1))) {
            long now = System.nanoTime();
            StartWaits.credit(task, now - 300 * MS, 500 * MS, 100 * MS);
            assertThat(StartWaits.remainingNanos(task, System.nanoTime())).isBetween(200 * MS, 300 * MS);
        }
    }

    @Test
    void aTaskThatNeverWaitedReadsItsOwnRemainingBudget() {
        try (Task task = Task.open("t-never", Duration.ofSeconds(30))) {
            assertThat(StartWaits.remainingNanos(task, System.nanoTime()))
                    .isBetween(29_000 * MS, 30_000 * MS);
        }
    }

    @Test
    void sumsSaturateBelowTheNoBudgetMarker() {
        assertThat(StartWaits.saturatedSum(Long.MAX_VALUE - 5, 10)).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(StartWaits.saturatedSum(Long.MAX_VALUE - 1, 1)).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(StartWaits.saturatedSum(-5, 3)).isEqualTo(-2);
        assertThat(StartWaits.saturatedSum(Long.MIN_VALUE + 1, -5)).isEqualTo(Long.MIN_VALUE);
    }
}

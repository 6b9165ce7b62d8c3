package dev.effectful.runtime.deadline;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class InterrupterTest {

    private final Interrupter interrupter = new Interrupter();

    @Test
    void interruptsABlockedThreadAtItsDeadlineAndClearsTheFlagOnDisarm() throws Exception {
        long start = System.nanoTime();
        Interrupter.Alarm alarm = interrupter.arm(Thread.currentThread(), TimeUnit.MILLISECONDS.toNanos(50));
        boolean interrupted = false;
        try {
            new CountDownLatch(1).await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(interrupted).isTrue();
        assertThat(elapsedMs).isBetween(45L, 2_000L);
        assertThat(alarm.disarm()).as("disarm reports the alarm fired").isTrue();
        assertThat(Thread.currentThread().isInterrupted()).as("our interrupt does not leak to the caller").isFalse();
    }

    @Test
    void aDisarmedAlarmNeverFires() throws Exception {
        Interrupter.Alarm alarm = interrupter.arm(Thread.currentThread(), TimeUnit.MILLISECONDS.toNanos(30));
        assertThat(alarm.disarm()).isFalse();
        CountDownLatch never = new CountDownLatch(1);
        assertThat(never.await(150, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
}

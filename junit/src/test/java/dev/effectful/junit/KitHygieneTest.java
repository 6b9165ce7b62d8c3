package dev.effectful.junit;

import dev.effectful.junit.samples.MailTools;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit leaves nothing behind on the thread that ran it, nor threads, nor journals: a plain Surefire
 * suite runs every test on one thread, and an alarm armed for the simulated crash's task would interrupt
 * whatever test that thread runs next.
 */
class KitHygieneTest {

    /** Short, so that the wait past every alarm's time is short; the kit's default is 30 s. */
    private static final Duration CRASH_TASK_BUDGET = Duration.ofMillis(1500);

    @Test
    void fiftyKitRunsOnOneThreadLeaveNoInterruptNoThreadAndNoJournal() throws IOException {
        Thread.interrupted(); // whatever came before is not this test's
        long kitThreadsBefore = kitThreads();
        List<Path> scratchBefore = scratchDirs();
        long lastAlarm = 0;
        for (int i = 0; i < 50; i++) {
            EffectfulKit kit = new EffectfulKit();
            String order = "order-" + (7000 + i);
            try {
                Receivers.Mailbox box = new Receivers.Mailbox();
                FakeHttpService svc = kit.httpService(box);
                Report report = kit.tool(MailTools.class, () -> new MailTools(svc.uri()))
                        .call(t -> t.sendEmail(order, "Your order has shipped."))
                        .rephrased(t -> t.sendEmail(order, "Your order is on its way!"))
                        .effects(box::count)
                        .faultsAt(svc)
                        .only(Check.KILL_MID_CALL)
                        .taskBudget(CRASH_TASK_BUDGET)
                        .run();
                // every verdict is the correct tool's: a stray interrupt from an earlier run would change one
                report.assertPassed();
                assertThat(report.verdict(Check.KILL_MID_CALL).orElseThrow().happened()).contains("probe found");
                lastAlarm = System.nanoTime() + CRASH_TASK_BUDGET.toNanos();
            } finally {
                kit.close();
            }
        }

        // past the time the last crashed call's alarm was armed for, with room for the watchdog's tick
        boolean interrupted = false;
        long until = lastAlarm + Duration.ofMillis(500).toNanos();
        while (System.nanoTime() < until && !interrupted) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        assertThat(interrupted || Thread.interrupted()).as("a deadline alarm left armed on the test thread").isFalse();

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (kitThreads() > kitThreadsBefore && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
        assertThat(kitThreads()).as("effectful threads still alive after the kits closed").isLessThanOrEqualTo(kitThreadsBefore);
        assertThat(scratchDirs()).as("scratch journals left in the temp directory").isEqualTo(scratchBefore);
        assertThat(Path.of("effectful-journal")).doesNotExist();
    }

    /** The engines' deadline watchdogs and the fake services' threads. */
    private static long kitThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith("effectful-")).count();
    }

    private static List<Path> scratchDirs() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("effectful-kit")).sorted().toList();
        }
    }
}

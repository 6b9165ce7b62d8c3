package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.GuardApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: on a rolling deploy the new JVM starts while the old one still
 * holds the journal. It refuses effectful calls (retryable, after a second, naming the holder),
 * runs READ calls, and takes the journal over within a second or two of the old JVM's exit, with the
 * old JVM's intents honoured. Real JVMs, the real agent jar, a real kill -9.
 */
class TakeoverIT {

    private static final Duration RUN = Duration.ofSeconds(120);
    /** The acceptance bound: served within this of the holder's exit. */
    private static final long TAKEOVER_MILLIS = 2_000;

    @TempDir
    Path tmp;

    private ForkedApp app(Path journal, String scenario) {
        return ForkedApp.jdk(Jdk.current()).main(GuardApp.class, scenario)
                .sysprop("effectful.journal.dir", journal)
                .sysprop("task", "t-deploy")
                .sysprop("release.file", tmp.resolve("release"))
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"));
    }

    private static void awaitStderr(ForkedApp app, String part) throws Exception {
        long end = System.nanoTime() + RUN.toNanos();
        while (!app.stderr().contains(part)) {
            if (System.nanoTime() > end) {
                throw new AssertionError("no '" + part + "' within " + RUN + "\nstderr:\n" + app.stderr());
            }
            Thread.sleep(20);
        }
    }

    @Test
    void theNewJvmTakesOverWhenTheOldOneExitsNormally() throws Exception {
        takeover(false);
    }

    @Test
    void theNewJvmTakesOverWhenTheOldOneIsKilled() throws Exception {
        takeover(true);
    }

    private void takeover(boolean kill) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp old = app(journal, "hold").start(tmp.resolve("logs"));
        old.awaitLine("HOLDING"::equals, RUN);

        ForkedApp next = app(journal, "takeover").sysprop("effectful.log.level", "debug").start(tmp.resolve("logs"));
        next.awaitLine("REFUSED_ONCE"::equals, RUN);
        // as in a rolling deploy, the old JVM drains for a while after the new one started: long
        // enough for the new one to warm its start path up (seconds; more on this shared machine)
        awaitStderr(next, "warmed up for the takeover");
        Map<String, String> refused = next.results();
        assertThat(refused.get("first")).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"")
                .contains("\"retry_after_s\":1", "in use by pid " + old.pid(), "takes the journal over");
        assertThat(refused).containsEntry("read_while_refused", "100");
        assertThat(next.stdout()).doesNotContain("RESULT served ");

        long exitedAt;
        if (kill) {
            old.kill9();
            exitedAt = System.currentTimeMillis();
        } else {
            Files.writeString(tmp.resolve("release"), "go");
            assertThat(old.awaitExit(RUN)).isZero();
            exitedAt = System.currentTimeMillis();
        }

        assertThat(next.awaitExit(RUN)).as(next.stderr()).isZero();
        Map<String, String> r = next.results();
        assertThat(r.get("served")).isEqualTo("paid:o-2");
        long servedAfter = Long.parseLong(r.get("served_at")) - exitedAt;
        System.out.println("TakeoverIT " + (kill ? "kill -9" : "normal exit") + ": served " + servedAfter
                + " ms after the old JVM's exit");
        assertThat(servedAfter).as("ms from the old JVM's exit to the first served call").isLessThan(TAKEOVER_MILLIS);
        // the old JVM's completed intent is honoured: a repeat is answered from the journal, its body does not run
        assertThat(r).containsEntry("repeat_of_first_jvm", "paid:o-1").containsEntry("money_bodies", "1");
        assertThat(next.stderr()).contains("in use by pid " + old.pid()).doesNotContain("ERROR");
        assertThat(JournalContents.of(journal).forCall("pay")).filteredOn(x -> x.type() == RecordType.OUTCOME)
                .extracting(JournalRecord::pid).containsExactly(old.pid(), next.pid());
    }
}

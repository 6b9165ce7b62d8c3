package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.ReentryApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: a real crash (kill -9 mid-call of a SEND tool with no probe), then every CLI
 * command on that journal, and a person's verdict that changes what the next call does.
 */
class CliAfterCrashIT {

    @TempDir
    Path tmp;

    private ForkedApp app(Path journal, EffectLedger ledger) {
        return ForkedApp.jdk(Jdk.current()).main(ReentryApp.class, "notify")
                .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url()).sysprop("task", "t-cli");
    }

    private static void crash(ForkedApp app, EffectLedger ledger) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (ledger.effects("notify_customer", "bob@example.com") == 0 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(ledger.effects("notify_customer", "bob@example.com")).as("the message landed before the kill").isEqualTo(1);
        app.kill9();
    }

    /** A writer on {@code journal} killed mid-call, its message landed: the key of its one intent. */
    private String crashed(Path journal, EffectLedger ledger) throws Exception {
        crash(app(journal, ledger).start(tmp.resolve("logs")), ledger);
        return JournalContents.of(journal).of(RecordType.INTENT).get(0).intentKey();
    }

    @Test
    void everyCommandReadsACrashedJournalAndResolveYesSettlesIt() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            String key = crashed(journal, ledger);

            CliRun tasks = CliRun.journal(journal, "tasks");
            assertThat(tasks.exitCode()).as(tasks.toString()).isZero();
            assertThat(tasks.stdout()).contains("t-cli");

            CliRun show = CliRun.journal(journal, "show", key);
            assertThat(show.exitCode()).as(show.toString()).isZero();
            assertThat(show.stdout()).contains("intent", "notify_customer");

            CliRun unresolved = CliRun.journal(journal, "unresolved");
            assertThat(unresolved.exitCode()).as(unresolved.toString()).isEqualTo(3);
            assertThat(unresolved.stdout()).contains(key, "t-cli", "notify_customer", "bob@example.com");

            CliRun export = CliRun.journal(journal, "export");
            assertThat(export.exitCode()).as(export.toString()).isZero();
            assertThat(export.stdout().lines()).anyMatch(l -> l.contains("\"type\":\"intent\"") && l.contains(key)
                    && l.contains("\"args\":{"));

            CliRun tail = CliRun.journal(journal, "tail", "-n", "5");
            assertThat(tail.exitCode()).as(tail.toString()).isZero();
            assertThat(tail.stdout()).contains("notify_customer");

            CliRun verify = CliRun.journal(journal, "verify");
            assertThat(verify.exitCode()).as("an intent without outcome needs a person: " + verify).isNotZero();
            assertThat(verify.stdout()).contains("intent");

            CliRun resolve = CliRun.journal(journal, "resolve", key, "--applied", "yes", "--note", "customer confirmed receipt");
            assertThat(resolve.exitCode()).as(resolve.toString()).isZero();
            assertThat(CliRun.journal(journal, "unresolved").exitCode()).isZero();

            // the next call of the same intent: ok without running
            ForkedApp after = app(journal, ledger).run(tmp.resolve("logs"), Duration.ofSeconds(60));
            assertThat(after.results().get("notify")).doesNotStartWith("THROWN {\"outcome\":\"unknown\"");
            assertThat(ledger.hits("/apply-then-hang/notify_customer")).as("not sent again").isEqualTo(1);
        }
    }

    @Test
    void resolveNoLetsTheNextCallRun() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            String key = crashed(journal, ledger);
            CliRun resolve = CliRun.journal(journal, "resolve", key, "--applied", "no");
            assertThat(resolve.exitCode()).as(resolve.toString()).isZero();

            ForkedApp after = app(journal, ledger).start(tmp.resolve("logs"));
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (ledger.hits("/apply-then-hang/notify_customer") < 2 && System.nanoTime() < end) {
                Thread.sleep(10);
            }
            assertThat(ledger.hits("/apply-then-hang/notify_customer")).as("the body ran again").isEqualTo(2);
            after.kill9();
        }
    }

    @Test
    void aWrongDirectoryIsOneLineAndExitTwo() throws Exception {
        CliRun r = CliRun.journal(tmp.resolve("no-such-dir"), "tasks");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr().strip().lines()).hasSize(1);
        assertThat(r.stderr()).doesNotContain("Exception", "\tat ");
    }
}

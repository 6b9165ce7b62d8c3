package dev.effectful.agent.fleet;

import dev.effectful.agent.e2e.CliRun;
import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.apps.FleetApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person's verdict in fleet mode, end to end with real host JVMs and the real CLI: a SEND without a
 * probe cut by {@code kill -9} is held; {@code journal --store postgres show} shows the store's row and
 * names the host whose journal holds the records; after {@code journal --store postgres resolve} the
 * host's repeat answers with the person's result and its own journal ({@code journal --dir} on that
 * host) no longer lists the intent as unresolved.
 */
class FleetVerdictIT {

    @RegisterExtension
    static final SharedPostgres pg = new SharedPostgres();

    @TempDir
    Path tmp;

    private ForkedApp host(EffectLedger ledger, Path gate) {
        return ForkedApp.jdk(Jdk.current()).main(FleetApp.class, "ship", "order-held", gate.toString())
                .sysprop("effectful.journal.dir", tmp.resolve("journal-a"))
                .sysprop("effectful.store", "postgres")
                .sysprop("effectful.store.url", pg.server().url())
                .sysprop("effectful.store.user", PostgresServer.USER)
                .sysprop("effectful.store.password", PostgresServer.PASSWORD)
                .sysprop("effectful.store.lease", "1s")
                .sysprop("effectful.store.timeout", "5s")
                .sysprop("ledger", ledger.url())
                .env("HOME", tmp.resolve("home").toString());
    }

    @Test
    void showNamesTheRowAndTheHostAndAResolutionThroughTheStoreReachesTheHostsOwnJournal() throws Exception {
        Path gate = Files.createFile(tmp.resolve("gate"));
        Path journal = tmp.resolve("journal-a");
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp cut = host(ledger, gate).start(tmp.resolve("logs-1"));
            cut.awaitLine("BODY ship order-held"::equals, Duration.ofSeconds(90));
            cut.kill9();
            String key = JournalContents.of(journal).of(RecordType.INTENT).get(0).intentKey();

            // the lease of the dead process lapses (1 s); the same host, restarted, holds the SEND for a person
            ForkedApp held = awaitHeld(ledger, gate);
            // the model is told what to tell the user; the operator's command (through the store) is in the host's log
            assertThat(held.results().get("ship")).contains("\"outcome\":\"unknown\"", "tell the user it is being checked")
                    .doesNotContain("--store postgres", "java -jar");
            assertThat(held.stderr()).contains("effectful held call=ship", "--store postgres");
            CliRun localBefore = CliRun.journal(journal, "unresolved");
            assertThat(localBefore.exitCode()).as(localBefore.toString()).isEqualTo(3);
            assertThat(localBefore.stdout()).contains(key.substring(0, 8));

            CliRun show = CliRun.journal(pg.server().storeEnv(), tmp.resolve("elsewhere"), "--store", "postgres", "show", key);
            assertThat(show.exitCode()).as(show.toString()).isZero();
            assertThat(show.stdout()).contains(key, "fleet-ship", "ship", "send", "intended", "records: in the journal of host")
                    .doesNotContain("no journal at");
            CliRun byPrefix = CliRun.journal(pg.server().storeEnv(), tmp.resolve("elsewhere"), "--json", "--store", "postgres", "show",
                    key.substring(0, 10));
            assertThat(byPrefix.exitCode()).as(byPrefix.toString()).isZero();
            assertThat(byPrefix.stdout().lines().toList()).singleElement().asString()
                    .contains("\"intent_key\":\"" + key + "\"").contains("\"state\":\"intended\"").contains("\"host\":");
            CliRun none = CliRun.journal(pg.server().storeEnv(), tmp.resolve("elsewhere"), "--store", "postgres", "show", "no-such-task");
            assertThat(none.exitCode()).isEqualTo(2);
            assertThat(none.stderr()).contains("no task or intent key 'no-such-task' in the shared store");

            CliRun resolve = CliRun.journal(pg.server().storeEnv(), tmp.resolve("elsewhere"), "--store", "postgres", "resolve", key,
                    "--applied", "yes", "--note", "checked the carrier", "--result", "\"done:slow:order-held\"");
            assertThat(resolve.exitCode()).as(resolve.toString()).isZero();
            CliRun storeAfter = CliRun.journal(pg.server().storeEnv(), tmp.resolve("elsewhere"), "--store", "postgres", "unresolved");
            assertThat(storeAfter.exitCode()).as(storeAfter.toString()).isZero();

            ForkedApp again = host(ledger, gate).run(tmp.resolve("logs-3"), Duration.ofSeconds(90));
            assertThat(again.results().get("ship")).isEqualTo("done:slow:order-held");
            assertThat(again.stdout()).doesNotContain("BODY ship");
            assertThat(JournalContents.of(journal).of(RecordType.RESOLUTION)).as("the store's verdict, in the host's journal")
                    .singleElement().satisfies(r -> assertThat(r.intentKey()).isEqualTo(key));

            CliRun localAfter = CliRun.journal(journal, "unresolved");
            assertThat(localAfter.exitCode()).as("the host's own view agrees with the store: " + localAfter).isZero();
            CliRun shown = CliRun.journal(pg.server().storeEnv(), tmp.resolve("elsewhere"), "--store", "postgres", "show", key);
            assertThat(shown.stdout()).contains("resolved_applied", "checked the carrier", "done:slow:order-held");
            assertThat(ledger.effects("slow", "order-held")).as("never shipped again").isLessThanOrEqualTo(1);
        }
    }

    /** Runs the host until its repeat is held (the dead process's lease must lapse first; bounded). */
    private ForkedApp awaitHeld(EffectLedger ledger, Path gate) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int n = 0;
        while (true) {
            ForkedApp app = host(ledger, gate).run(tmp.resolve("logs-2-" + n++), Duration.ofSeconds(90));
            String r = app.results().get("ship");
            if (r != null && r.contains("\"outcome\":\"unknown\"") && r.contains("held until a person")
                    || System.nanoTime() > end) {
                return app;
            }
        }
    }
}

package dev.effectful.agent.fleet;

import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.apps.FleetCardApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One fingerprint key per fleet: two host JVMs with journals of their own, one task, a
 * {@code @IntentKey @Redact} card token. A host killed mid-charge is taken over by the other, which
 * derives the same intent key (the fleet's key, from the store), probes and never charges again;
 * a host whose journal's keys were made with another secret refuses, naming both.
 */
class FleetKeyIT {

    private static final String TOKEN = "tok-4242-S3cr3t";

    @RegisterExtension
    static final SharedPostgres pg = new SharedPostgres();

    @TempDir
    Path tmp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private ForkedApp host(Jdk jdk, String name, EffectLedger ledger, boolean fleet, String order) {
        ForkedApp app = ForkedApp.jdk(jdk).main(FleetCardApp.class, order)
                .sysprop("effectful.journal.dir", tmp.resolve("journal-" + name))
                .sysprop("token", TOKEN)
                .sysprop("ledger", ledger.url())
                .env("HOME", tmp.resolve("home").toString());
        if (fleet) {
            app.sysprop("effectful.store", "postgres")
                    .sysprop("effectful.store.url", pg.server().url())
                    .sysprop("effectful.store.user", PostgresServer.USER)
                    .sysprop("effectful.store.password", PostgresServer.PASSWORD)
                    .sysprop("effectful.store.lease", "2s")
                    .sysprop("effectful.store.timeout", "5s");
        }
        return app;
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aRedactedKeyIsTheSameOnEveryHostSoAMovedTaskChargesOnce(Jdk jdk) throws Exception {
        String order = "order-" + jdk.name();
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp a = host(jdk, "a", ledger, true, order).sysprop("charge.mode", "hang").start(tmp.resolve("logs"));
            a.awaitLine(l -> l.equals("BODY charge_card " + order), Duration.ofSeconds(90));
            awaitEffect(ledger, "card", order);
            a.kill9();

            ForkedApp b = host(jdk, "b", ledger, true, order).run(tmp.resolve("logs"), Duration.ofSeconds(90));

            assertThat(b.results().get("charge")).isEqualTo("done:card:" + order);
            assertThat(ledger.effects("card", order)).as("the card is charged once").isEqualTo(1);
            assertThat(b.stdout()).doesNotContain("BODY charge_card");
            JournalRecord intentOfA = JournalContents.of(tmp.resolve("journal-a")).of(RecordType.INTENT).get(0);
            JournalRecord probeOfB = JournalContents.of(tmp.resolve("journal-b")).of(RecordType.PROBE).get(0);
            assertThat(probeOfB.probe()).isEqualTo(ProbeResult.FOUND);
            assertThat(probeOfB.intentKey()).as("both hosts key the intent alike").isEqualTo(intentOfA.intentKey());
            assertThat(intentOfA.args()).doesNotContain(TOKEN);
            assertThat(Files.readAllBytes(tmp.resolve("journal-b/secret.key")))
                    .as("one fingerprint key for the fleet").isEqualTo(Files.readAllBytes(tmp.resolve("journal-a/secret.key")));
            assertThat(a.stderr() + b.stderr() + a.stdout() + b.stdout()).doesNotContain(TOKEN)
                    .doesNotContain(PostgresServer.PASSWORD);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aHostWhoseJournalWasKeyedWithAnotherSecretRefusesNamingIt(Jdk jdk) throws Exception {
        String order = "order-other-" + jdk.name();
        try (EffectLedger ledger = new EffectLedger()) {
            // the fleet has a key (made by the first host that needed one)
            ForkedApp d = host(jdk, "d", ledger, true, "order-d-" + jdk.name()).run(tmp.resolve("logs"), Duration.ofSeconds(90));
            assertThat(d.results().get("charge")).startsWith("done:card:");
            // a host that ran alone first: its journal's keys are made with its own secret
            ForkedApp alone = host(jdk, "c", ledger, false, "order-alone-" + jdk.name()).run(tmp.resolve("logs"),
                    Duration.ofSeconds(90));
            assertThat(alone.results().get("charge")).startsWith("done:card:");

            ForkedApp c = host(jdk, "c", ledger, true, order).run(tmp.resolve("logs"), Duration.ofSeconds(90));
            assertThat(c.results().get("charge")).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"")
                    .contains(tmp.resolve("journal-c/secret.key").toString()).contains("fleet's fingerprint key")
                    .contains("effectful_fleet_key");
            assertThat(ledger.effects("card", order)).isZero();
            assertThat(c.stdout()).doesNotContain("BODY charge_card");
        }
    }

    private static void awaitEffect(EffectLedger ledger, String verb, String key) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (ledger.effects(verb, key) == 0) {
            if (System.nanoTime() > end) {
                throw new AssertionError("the effect " + verb + " " + key + " never reached the ledger");
            }
            Thread.sleep(10);
        }
    }
}

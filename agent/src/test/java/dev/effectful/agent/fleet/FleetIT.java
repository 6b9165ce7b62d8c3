package dev.effectful.agent.fleet;

import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.apps.FleetApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fleet mode end to end: three host JVMs, each with the real agent jar, its own journal directory
 * and (as root) its own network namespace, sharing one real PostgreSQL server and a ledger that
 * counts effects: the hosts share nothing but the database and the ledger, which is what a fleet
 * shares.
 */
class FleetIT {

    static PostgresServer pg;
    /** Null where namespaces cannot be made (not root, no {@code ip}): the hosts then share loopback. */
    static HostNetworks nets;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        nets = HostNetworks.createIfPossible(List.of("a", "b", "c")).orElse(null);
        if (nets == null) {
            System.out.println("FleetIT: no network namespaces here (needs root and ip): the hosts share loopback");
        }
        pg = PostgresServer.start(false, nets == null ? List.of() : nets.gateways());
    }

    @AfterAll
    static void stopServer() throws Exception {
        try {
            if (pg != null) {
                pg.close();
            }
        } finally {
            if (nets != null) {
                nets.close();
            }
        }
    }

    /** How {@code host} reaches the database and the ledger. */
    private static String via(String host) {
        return nets == null ? "127.0.0.1" : nets.gateway(host);
    }

    private static EffectLedger ledger() throws java.io.IOException {
        return nets == null ? new EffectLedger() : new EffectLedger(java.net.InetAddress.getByName("0.0.0.0"));
    }

    /** A host: own journal, the shared store, the password given each of the three supported ways. */
    private ForkedApp host(String name, EffectLedger ledger, String... args) throws Exception {
        ForkedApp app = ForkedApp.jdk(Jdk.current()).main(FleetApp.class, args)
                .sysprop("effectful.journal.dir", tmp.resolve("journal-" + name))
                .sysprop("effectful.store", "postgres")
                .sysprop("effectful.store.url", pg.urlVia(via(name)))
                .sysprop("effectful.store.user", PostgresServer.USER)
                .sysprop("effectful.store.lease", "2s")
                .sysprop("effectful.store.timeout", "5s")
                .sysprop("ledger", ledger.urlVia(via(name)))
                .env("HOME", tmp.resolve("home").toString());
        if (nets != null) {
            app.prefix(nets.enter(name));
        }
        switch (name) {
            case "a" -> app.env("EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD);
            case "b" -> {
                Path pw = tmp.resolve("store-password");
                Files.writeString(pw, PostgresServer.PASSWORD + "\n");
                app.sysprop("effectful.store.password.file", pw);
            }
            default -> app.sysprop("effectful.store.password", PostgresServer.PASSWORD);
        }
        return app;
    }

    @Test
    void aHostKilledMidChargeIsTakenOverByAnotherThatProbesOnceAndNeverChargesAgain() throws Exception {
        try (EffectLedger ledger = ledger()) {
            ForkedApp a = host("a", ledger, "charge", "order-kill").sysprop("charge.mode", "hang").start(tmp.resolve("logs"));
            a.awaitLine(l -> l.equals("BODY charge order-kill"), Duration.ofSeconds(90));
            awaitEffect(ledger, "charge", "order-kill");
            a.kill9();

            ForkedApp b = host("b", ledger, "charge", "order-kill").run(tmp.resolve("logs"), Duration.ofSeconds(90));

            assertThat(b.results().get("charge")).isEqualTo("done:charge:order-kill");
            assertThat(ledger.effects("charge", "order-kill")).as("the card is charged once").isEqualTo(1);
            assertThat(b.stdout()).doesNotContain("BODY charge");
            JournalContents jb = JournalContents.of(tmp.resolve("journal-b"));
            assertThat(jb.of(RecordType.PROBE)).as("B probed once, and found the charge")
                    .singleElement().extracting(JournalRecord::probe).isEqualTo(dev.effectful.core.journal.ProbeResult.FOUND);
            assertThat(jb.of(RecordType.INTENT)).as("B never started the body").isEmpty();
            JournalContents ja = JournalContents.of(tmp.resolve("journal-a"));
            assertThat(ja.of(RecordType.INTENT)).as("A's own journal: its write-ahead intent").hasSize(1);
            assertThat(ja.of(RecordType.OUTCOME)).isEmpty();
            assertThat(row(ja.of(RecordType.INTENT).get(0).intentKey())).isEqualTo("ok");
            assertThat(a.stderr() + b.stderr() + a.stdout() + b.stdout()).doesNotContain(PostgresServer.PASSWORD);
        }
    }

    @Test
    void theSameNewIntentFromTwoHostsAtOneMomentRunsOnceAndBothGetItsResult() throws Exception {
        try (EffectLedger ledger = ledger()) {
            Path gate = tmp.resolve("gate");
            ForkedApp b = host("b", ledger, "ship", "order-race", gate.toString()).start(tmp.resolve("logs"));
            ForkedApp c = host("c", ledger, "ship", "order-race", gate.toString()).start(tmp.resolve("logs"));
            b.awaitLine("READY"::equals, Duration.ofSeconds(90));
            c.awaitLine("READY"::equals, Duration.ofSeconds(90));
            if (nets != null) {
                Path mine = Files.readSymbolicLink(Path.of("/proc/self/ns/net"));
                Path ofB = Files.readSymbolicLink(Path.of("/proc", Long.toString(b.pid()), "ns", "net"));
                Path ofC = Files.readSymbolicLink(Path.of("/proc", Long.toString(c.pid()), "ns", "net"));
                assertThat(List.of(ofB, ofC)).as("each host in a network namespace of its own").doesNotHaveDuplicates()
                        .doesNotContain(mine);
            }
            Files.createFile(gate);
            assertThat(b.awaitExit(Duration.ofSeconds(90))).isZero();
            assertThat(c.awaitExit(Duration.ofSeconds(90))).isZero();

            assertThat(ledger.effects("slow", "order-race")).as("one shipment").isEqualTo(1);
            assertThat(b.results().get("ship")).isEqualTo("done:slow:order-race");
            assertThat(c.results().get("ship")).isEqualTo("done:slow:order-race");
            int bodies = (b.stdout().contains("BODY ship") ? 1 : 0) + (c.stdout().contains("BODY ship") ? 1 : 0);
            assertThat(bodies).as("exactly one host ran the body").isEqualTo(1);
            List<JournalRecord> dedups = List.of(JournalContents.of(tmp.resolve("journal-b")),
                    JournalContents.of(tmp.resolve("journal-c"))).stream().flatMap(j -> j.of(RecordType.DEDUP).stream()).toList();
            assertThat(dedups).as("the other answered from the shared row").hasSize(1);
        }
    }

    @Test
    void theDatabaseKilledMidRunRefusesEffectsLetsReadsGoOnAndServiceResumesAfterRestart() throws Exception {
        try (EffectLedger ledger = ledger()) {
            Path gates = Files.createDirectories(tmp.resolve("gates"));
            ForkedApp d = host("c", ledger, "outage", gates.toString()).start(tmp.resolve("logs"));
            d.awaitLine("READY down"::equals, Duration.ofSeconds(90));
            pg.kill9();
            try {
                Files.createFile(gates.resolve("down"));
                d.awaitLine("READY up"::equals, Duration.ofSeconds(60));
                assertThat(ledger.effects("charge", "o-during")).as("no effect without a claim").isZero();
            } finally {
                pg.startServer();
            }
            Files.createFile(gates.resolve("up"));
            assertThat(d.awaitExit(Duration.ofSeconds(90))).isZero();

            var r = d.results();
            assertThat(r.get("before")).isEqualTo("done:charge:o-before");
            assertThat(r.get("during")).startsWith("THROWN ").contains("\"outcome\":\"retryable\"")
                    .contains("\"effect_applied\":\"no\"").contains("intent store postgres " + pg.urlVia(via("c")))
                    .doesNotContain(PostgresServer.PASSWORD);
            assertThat(Long.parseLong(r.get("during_ms"))).as("refused within the task budget of 8 s").isLessThan(8_000);
            assertThat(r.get("read")).as("READ tools go on").isEqualTo("42");
            assertThat(r.get("after")).isEqualTo("done:charge:o-during");
            assertThat(r.get("again")).isEqualTo("done:charge:o-during");
            assertThat(ledger.effects("charge", "o-during")).isEqualTo(1);
            assertThat(ledger.effects("charge", "o-before")).isEqualTo(1);
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

    private static String row(String key) throws Exception {
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT phase FROM effectful_intents WHERE intent_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}

package dev.effectful.agent.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import dev.effectful.agent.e2e.CliRun;
import dev.effectful.agent.e2e.ControlFiles;
import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.SteppedApp;
import dev.effectful.agent.e2e.apps.ApprovalApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approvals in fleet mode: two host JVMs with the real agent jar, each with its own journal, sharing one
 * real PostgreSQL server and a ledger that counts effects. Both ask for the same intent: one request (one
 * row, one {@code approval_requested} in one host's journal); the verdict given once in the store
 * ({@code journal --store postgres approve|deny}) is honoured by both.
 */
class ApprovalFleetIT {

    @RegisterExtension
    static final SharedPostgres pg = new SharedPostgres();

    @TempDir
    Path tmp;

    /** A host of the fleet, stepped through control files (see {@link ApprovalApp}). */
    private SteppedApp host(String name, EffectLedger ledger) throws Exception {
        ControlFiles ctl = ControlFiles.create(tmp.resolve("ctl-" + name));
        return new SteppedApp(ForkedApp.jdk(Jdk.current()).main(ApprovalApp.class)
                .sysprop("effectful.journal.dir", tmp.resolve("journal-" + name))
                .sysprop("effectful.store", "postgres").sysprop("effectful.store.url", pg.server().url())
                .sysprop("effectful.store.user", PostgresServer.USER).sysprop("effectful.store.timeout", "5s")
                .env("EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD)
                .sysprop("ledger", ledger.url()).sysprop("ctl", ctl.dir())
                .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"))
                .start(tmp.resolve("logs-" + name)), ctl);
    }

    private void assertWaiting(JsonNode o) {
        assertThat(o.get("outcome").asText()).as(o.toString()).isEqualTo("retryable");
        assertThat(o.get("effect_applied").asText()).isEqualTo("no");
        assertThat(o.get("retry_after_s").asLong()).isPositive();
        assertThat(o.get("message").asText()).contains("a person must approve this first");
    }

    private long requests(String host, String key) throws Exception {
        return JournalContents.of(tmp.resolve("journal-" + host))
                .where(r -> key.equals(r.intentKey()) && r.type() == RecordType.APPROVAL_REQUESTED).size();
    }

    @Test
    void twoHostsCreateOneRequestAndBothHonourTheVerdictGivenInTheStore() throws Exception {
        try (EffectLedger ledger = new EffectLedger(); SteppedApp a = host("a", ledger); SteppedApp b = host("b", ledger)) {
            JsonNode fromA = a.refused("charge f1 charge order f1");
            assertWaiting(fromA);
            String key = fromA.get("intent_key").asText();
            JsonNode fromB = b.refused("charge f1 the same charge, asked on another host");
            assertWaiting(fromB);
            assertThat(fromB.get("intent_key").asText()).isEqualTo(key);
            assertThat(fromB.get("message").asText()).contains("still pending");
            assertThat(requests("a", key) + requests("b", key)).as("one request in the fleet").isEqualTo(1);
            assertThat(requests("a", key)).isEqualTo(1);
            assertThat(row(key)).isEqualTo("awaiting_approval");

            CliRun list = CliRun.journal(pg.server().storeEnv(), tmp, "--store", "postgres", "approvals");
            assertThat(list.exitCode()).as(list.toString()).isEqualTo(3);
            assertThat(list.stdout()).contains(key, "charge", "money");
            CliRun unresolved = CliRun.journal(pg.server().storeEnv(), tmp, "--store", "postgres", "unresolved");
            assertThat(unresolved.exitCode()).as("nothing ran: not an unknown effect").isZero();
            assertThat(unresolved.stdout()).contains("Awaiting approval (1)", key);
            CliRun approve = CliRun.journal(pg.server().storeEnv(), tmp, "--store", "postgres", "approve", key, "--note",
                    "approved for the fleet", "--by", "Carol");
            assertThat(approve.exitCode()).as(approve.toString()).isZero();
            assertThat(by(key)).contains("Carol", System.getProperty("user.name"));

            assertThat(b.run("charge f1 B asks again in other words")).isEqualTo("done:charge:f1");
            assertThat(a.run("charge f1 A asks again")).as("the stored result from the shared row")
                    .isEqualTo("done:charge:f1");
            assertThat(ledger.effects("charge", "f1")).as("charged once in the fleet").isEqualTo(1);

            // denied in the store: both hosts refuse it for good with the note
            JsonNode asked = b.refused("charge f2 another order");
            assertWaiting(asked);
            String denied = asked.get("intent_key").asText();
            assertWaiting(a.refused("charge f2 another order, from A"));
            CliRun deny = CliRun.journal(pg.server().storeEnv(), tmp, "--store", "postgres", "deny", denied, "--note",
                    "fraud suspected");
            assertThat(deny.exitCode()).as(deny.toString()).isZero();
            for (SteppedApp h : new SteppedApp[] {a, b}) {
                JsonNode o = h.refused("charge f2 please");
                assertThat(o.get("outcome").asText()).isEqualTo("permanent");
                assertThat(o.get("effect_applied").asText()).isEqualTo("no");
                assertThat(o.get("message").asText()).contains("denied", "fraud suspected");
            }
            assertThat(ledger.effects("charge", "f2")).isZero();
            assertThat(requests("a", denied) + requests("b", denied)).isEqualTo(1);
        }
    }

    private static String row(String key) throws Exception {
        return column(key, "phase");
    }

    private static String by(String key) throws Exception {
        return column(key, "approval_by");
    }

    private static String column(String key, String column) throws Exception {
        try (Connection c = pg.server().connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT " + column + " FROM effectful_intents WHERE intent_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}

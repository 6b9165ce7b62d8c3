package dev.effectful.agent.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.agent.e2e.CliRun;
import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.apps.ApprovalApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approvals in fleet mode: two host JVMs with the real agent jar, each with its own journal, sharing one
 * real PostgreSQL server and a ledger that counts effects. Both ask for the same intent: one request (one
 * row, one {@code approval_requested} in one host's journal); the verdict given once in the store
 * ({@code journal --store postgres approve|deny}) is honoured by both.
 */
class ApprovalFleetIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    static PostgresServer pg;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        pg = PostgresServer.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    /** A host of the fleet, stepped through control files (see {@link ApprovalApp}). */
    private final class Host implements AutoCloseable {
        final ForkedApp app;
        final Path ctl;
        int step;

        Host(String name, EffectLedger ledger) throws Exception {
            ctl = Files.createDirectories(tmp.resolve("ctl-" + name));
            app = ForkedApp.jdk(Jdk.current()).main(ApprovalApp.class)
                    .sysprop("effectful.journal.dir", tmp.resolve("journal-" + name))
                    .sysprop("effectful.store", "postgres").sysprop("effectful.store.url", pg.url())
                    .sysprop("effectful.store.user", PostgresServer.USER).sysprop("effectful.store.timeout", "5s")
                    .env("EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD)
                    .sysprop("ledger", ledger.url()).sysprop("ctl", ctl)
                    .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"))
                    .start(tmp.resolve("logs-" + name));
        }

        String run(String command) throws Exception {
            step++;
            Path part = ctl.resolve(step + ".tmp");
            Files.writeString(part, command, StandardCharsets.UTF_8);
            Files.move(part, ctl.resolve(Integer.toString(step)), StandardCopyOption.ATOMIC_MOVE);
            String prefix = "RESULT s" + step + " ";
            return app.awaitLine(l -> l.startsWith(prefix), Duration.ofSeconds(90)).substring(prefix.length());
        }

        JsonNode refused(String command) throws Exception {
            String answer = run(command);
            assertThat(answer).as("refused, not run").startsWith("THROWN ");
            return JSON.readTree(answer.substring("THROWN ".length()));
        }

        @Override
        public void close() throws Exception {
            try {
                app.kill9();
            } catch (AssertionError alreadyGone) {
                // ended by itself
            }
        }
    }

    private static Map<String, String> storeEnv() {
        return Map.of("EFFECTFUL_STORE_URL", pg.url(), "EFFECTFUL_STORE_USER", PostgresServer.USER,
                "EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD);
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
        try (EffectLedger ledger = new EffectLedger(); Host a = new Host("a", ledger); Host b = new Host("b", ledger)) {
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

            CliRun list = CliRun.journal(storeEnv(), tmp, "--store", "postgres", "approvals");
            assertThat(list.exitCode()).as(list.toString()).isEqualTo(3);
            assertThat(list.stdout()).contains(key, "charge", "money");
            CliRun unresolved = CliRun.journal(storeEnv(), tmp, "--store", "postgres", "unresolved");
            assertThat(unresolved.exitCode()).as("nothing ran: not an unknown effect").isZero();
            assertThat(unresolved.stdout()).contains("Awaiting approval (1)", key);
            CliRun approve = CliRun.journal(storeEnv(), tmp, "--store", "postgres", "approve", key, "--note",
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
            CliRun deny = CliRun.journal(storeEnv(), tmp, "--store", "postgres", "deny", denied, "--note",
                    "fraud suspected");
            assertThat(deny.exitCode()).as(deny.toString()).isZero();
            for (Host h : new Host[] {a, b}) {
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
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT " + column + " FROM effectful_intents WHERE intent_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}

package dev.effectful.cli;

import dev.effectful.agent.fleet.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static dev.effectful.cli.SimultaneousVerdictsTest.ROUNDS;
import static dev.effectful.cli.SimultaneousVerdictsTest.together;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SimultaneousVerdictsTest}'s races on a fleet's shared store ({@code --store postgres}), against a real
 * PostgreSQL: two approvals, an approval and a denial, two resolutions of one row at the same moment. The
 * store takes exactly one (a conditional update only one can win); the other is refused and told what the
 * row says now.
 */
class FleetSimultaneousVerdictsIT {

    static PostgresServer pg;
    static Map<String, String> env;

    @BeforeAll
    static void startServer() throws Exception {
        pg = PostgresServer.start();
        env = Map.of();
        // the CLI in this JVM reads the store's settings as an operator's -D flags give them
        System.setProperty("effectful.store.url", pg.url());
        System.setProperty("effectful.store.user", PostgresServer.USER);
        System.setProperty("effectful.store.password", PostgresServer.PASSWORD);
        // the first verdict makes the schema, as on a fresh fleet
        TestJournals.Run first = TestJournals.cli(env, false, "--store", "postgres", "approve", "f".repeat(32),
                "--note", "none");
        assertThat(first.err()).as(first.toString()).contains("no intent");
    }

    @AfterAll
    static void stopServer() throws Exception {
        for (String key : List.of("effectful.store.url", "effectful.store.user", "effectful.store.password")) {
            System.clearProperty(key);
        }
        if (pg != null) {
            pg.close();
        }
    }

    private static String row(String phase, int round) throws Exception {
        String key = String.format("%08x", phase.hashCode()) + String.format("%024x", round);
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO effectful_intents"
                + " (intent_key, task, call, kind, phase, attempts) VALUES (?, 'ord-5', 'refund', 'money', ?, 1)")) {
            ps.setString(1, key);
            ps.setString(2, phase);
            ps.executeUpdate();
        }
        return key;
    }

    private static String[] phaseAndWho(String key) throws Exception {
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT phase, approval_by, message FROM effectful_intents WHERE intent_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return new String[] {rs.getString(1), rs.getString(2), rs.getString(3)};
            }
        }
    }

    private static Callable<SimultaneousVerdictsTest.Answer> shell(String... command) {
        String[] args = new String[command.length + 2];
        args[0] = "--store";
        args[1] = "postgres";
        System.arraycopy(command, 0, args, 2, command.length);
        return () -> SimultaneousVerdictsTest.Answer.of(TestJournals.cli(env, false, args));
    }

    private static void exactlyOne(int round, List<SimultaneousVerdictsTest.Answer> answers, String stands) {
        String seen = "round " + round + ": " + answers;
        assertThat(answers.stream().filter(SimultaneousVerdictsTest.Answer::recorded)).as(seen).hasSize(1);
        assertThat(answers.stream().filter(a -> !a.recorded()).findFirst().orElseThrow().words()).as(seen)
                .contains("already").contains(stands);
    }

    @Test
    void anApprovalAndADenialAtOnceLeaveOneVerdictInTheStore() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String key = row("awaiting_approval", round);
            String second = round % 2 == 0 ? "approve" : "deny";
            List<SimultaneousVerdictsTest.Answer> answers = together(
                    shell("approve", key, "--note", "ok", "--by", "ann"),
                    shell(second, key, "--note", "second look", "--by", "bob"));
            String[] row = phaseAndWho(key);
            exactlyOne(round, answers, row[0] + " by " + row[1]);
        }
    }

    @Test
    void twoResolutionsAtOnceLeaveOneInTheStore() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String key = row("unknown", round);
            List<SimultaneousVerdictsTest.Answer> answers = together(
                    shell("resolve", key, "--applied", "yes", "--note", "in the shop"),
                    shell("resolve", key, "--applied", "no", "--note", "not in the shop"));
            String[] row = phaseAndWho(key);
            exactlyOne(round, answers, "(note: " + row[2] + ")");
        }
    }
}

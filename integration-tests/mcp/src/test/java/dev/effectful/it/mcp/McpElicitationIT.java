package dev.effectful.it.mcp;

import dev.effectful.agent.e2e.CliRun;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approval by MCP elicitation: a server JVM serves {@link RefundTools#refund} ({@code approval = REQUIRED}) over the
 * SDK's streamable HTTP transport; a client JVM ({@link McpElicitClientApp}, SDK 2.x) declares the
 * {@code elicitation} capability and answers as its user would. Both run the real agent; the refund's effect is
 * counted by a loopback ledger in this JVM. The server runs on SDK 2.x, and on 1.x for the accepted verdict
 * (the request type the agent builds differs between them).
 */
class McpElicitationIT extends McpServerTest {

    @ParameterizedTest(name = "server on MCP SDK {0}")
    @ValueSource(strings = {"2.x", "1.x"})
    void acceptedTheToolRunsOnceAndNeitherARephrasedRetryNorARestartAsksOrRunsAgain(String sdk) throws Exception {
        String classPath = McpToolHintsIT.classPath(sdk);
        Path journal = tmp.resolve("journal");
        ForkedApp server = server(classPath, journal);

        Map<String, String> r = client(listening(server), "accept", "t-accept");

        assertThat(r.get("first")).as(r.toString()).isEqualTo("refunded o-9 for alice");
        assertThat(r.get("second")).as("the rephrased retry gets the stored result").isEqualTo(r.get("first"));
        assertThat(r.get("asked")).as("asked once, by the call that made the request").isEqualTo("1");
        // what the user was shown: the tool, the target, the arguments as journaled, the redacted one as its fingerprint
        assertThat(r.get("message")).contains("refund_order", "[\"o-9\"]", "damaged in transit", "hmac:", "alice")
                .doesNotContain(RefundTools.CARD);
        assertThat(ledger.effects("refund", "o-9|alice")).isEqualTo(1);
        String key = onlyRequest(journal);
        JournalRecord verdict = onlyVerdict(journal, key);
        assertThat(verdict.verdict()).isEqualTo("approved");
        assertThat(verdict.by()).isEqualTo("alice");
        assertThat(verdict.via()).isEqualTo("elicitation");
        assertThat(verdict.note()).isEqualTo("ok by me");
        assertNoPlaintextCard(journal);

        server.kill9();
        ForkedApp restarted = server(classPath, journal);
        Map<String, String> again = client(listening(restarted), "accept", "t-accept");

        assertThat(again.get("first")).as("after a restart: the stored result").isEqualTo("refunded o-9 for alice");
        assertThat(again.get("asked")).as("never asked again").isEqualTo("0");
        assertThat(ledger.effects("refund", "o-9|alice")).isEqualTo(1);
        assertThat(JournalContents.of(journal).where(x -> key.equals(x.intentKey()) && x.type() == RecordType.INTENT))
                .as("one attempt").hasSize(1);
        CliRun show = CliRun.journal(journal, "show", key);
        assertThat(show.stdout()).as(show.toString()).contains("approved by alice via elicitation: ok by me");
    }

    @Test
    void declinedTheCallIsRefusedForGoodWithTheUsersWordsAndNeverAskedAgain() throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp server = server(McpToolHintsIT.classPath("2.x"), journal);

        Map<String, String> r = client(listening(server), "decline", "t-decline");

        assertThat(r.get("first")).startsWith("error:").contains("denied", McpElicitClientApp.DECLINE_NOTE,
                "do not retry");
        assertThat(r.get("second")).as("the rephrased retry: the same verdict").startsWith("error:")
                .contains("\"outcome\":\"permanent\"", "a person denied this: " + McpElicitClientApp.DECLINE_NOTE);
        assertThat(r.get("asked")).isEqualTo("1");
        assertThat(ledger.effects("refund", "o-9|alice")).isZero();
        String key = onlyRequest(journal);
        JournalRecord verdict = onlyVerdict(journal, key);
        assertThat(verdict.verdict()).isEqualTo("denied");
        assertThat(verdict.by()).isEqualTo("alice");
        assertThat(verdict.via()).isEqualTo("elicitation");
        assertThat(verdict.note()).isEqualTo(McpElicitClientApp.DECLINE_NOTE);
        CliRun show = CliRun.journal(journal, "show", key);
        assertThat(show.stdout()).as(show.toString()).contains("denied by alice via elicitation: "
                + McpElicitClientApp.DECLINE_NOTE);
    }

    @Test
    void aClientWithoutTheCapabilityWaitsForTheCliAsBefore() throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp server = server(McpToolHintsIT.classPath("2.x"), journal);
        String url = listening(server);

        Map<String, String> r = client(url, "none", "t-none");

        assertThat(r.get("first")).startsWith("error:").contains("a person must approve this first",
                "did not declare the elicitation capability", "waits for a person at the console or the CLI");
        assertThat(r.get("second")).startsWith("error:").contains("still pending");
        assertThat(r.get("asked")).isEqualTo("0");
        assertThat(ledger.effects("refund", "o-9|alice")).isZero();
        String key = onlyRequest(journal);
        CliRun approvals = CliRun.journal(journal, "approvals");
        assertThat(approvals.exitCode()).as(approvals.toString()).isEqualTo(3);
        assertThat(approvals.stdout()).contains(key.substring(0, 8), "refund_order", "alice");

        CliRun approve = CliRun.journal(journal, "approve", key, "--note", "finance said yes", "--by", "Bob");
        assertThat(approve.exitCode()).as(approve.toString()).isZero();
        Map<String, String> after = client(url, "none", "t-none");

        assertThat(after.get("first")).isEqualTo("refunded o-9 for alice");
        assertThat(ledger.effects("refund", "o-9|alice")).isEqualTo(1);
        JournalRecord verdict = onlyVerdict(journal, key);
        assertThat(verdict.via()).as("given at the CLI").isNull();
        CliRun show = CliRun.journal(journal, "show", key);
        assertThat(show.stdout()).as(show.toString()).contains("approved by Bob").doesNotContain("via elicitation");
    }

    @Test
    void aCancelledQuestionWaitsForTheCliAndTheRetryDoesNotAskAgain() throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp server = server(McpToolHintsIT.classPath("2.x"), journal);

        Map<String, String> r = client(listening(server), "cancel", "t-cancel");

        assertThat(r.get("first")).startsWith("error:").contains("a person must approve this first", "the user cancelled");
        assertThat(r.get("second")).startsWith("error:").contains("still pending");
        assertThat(r.get("asked")).isEqualTo("1");
        assertThat(ledger.effects("refund", "o-9|alice")).isZero();
        String key = onlyRequest(journal);
        assertThat(JournalContents.of(journal).where(x -> key.equals(x.intentKey()) && x.type() == RecordType.APPROVAL))
                .isEmpty();
    }

    @Test
    void turnedOffTheClientIsNeverAsked() throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp server = server(McpToolHintsIT.classPath("2.x"), journal, "effectful.approval.elicit", "false");

        Map<String, String> r = client(listening(server), "accept", "t-off");

        assertThat(r.get("first")).startsWith("error:").contains("a person must approve this first")
                .doesNotContain("MCP client");
        assertThat(r.get("asked")).isEqualTo("0");
        assertThat(ledger.effects("refund", "o-9|alice")).isZero();
    }

    private static String onlyRequest(Path journal) throws Exception {
        List<JournalRecord> requests = JournalContents.of(journal).of(RecordType.APPROVAL_REQUESTED);
        assertThat(requests).as("one approval request").hasSize(1);
        assertThat(requests.get(0).task()).startsWith("t-");
        return requests.get(0).intentKey();
    }

    private static JournalRecord onlyVerdict(Path journal, String key) throws Exception {
        List<JournalRecord> verdicts = JournalContents.of(journal)
                .where(x -> key.equals(x.intentKey()) && x.type() == RecordType.APPROVAL);
        assertThat(verdicts).as("exactly one verdict").hasSize(1);
        return verdicts.get(0);
    }

    private static void assertNoPlaintextCard(Path journal) throws IOException {
        try (Stream<Path> files = Files.walk(journal)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1))
                        .as(f.toString()).doesNotContain(RefundTools.CARD);
            }
        }
    }

    private ForkedApp server(String classPath, Path journal, String... sysprops) throws IOException {
        ForkedApp server = ForkedApp.jdk(Jdk.current()).classPath(classPath).main(McpServerApp.class)
                .sysprop("it.tools", "approval")
                .sysprop("effectful.journal.dir", journal)
                .sysprop("ledger", ledger.url());
        for (int i = 0; i + 1 < sysprops.length; i += 2) {
            server.sysprop(sysprops[i], sysprops[i + 1]);
        }
        return started(server);
    }

    private Map<String, String> client(String url, String answer, String task) throws Exception {
        return ForkedApp.jdk(Jdk.current()).main(McpElicitClientApp.class, url, answer, task, "60000")
                .sysprop("effectful.journal.dir", tmp.resolve("client-journal"))
                .run(tmp.resolve("logs"), START).results();
    }
}

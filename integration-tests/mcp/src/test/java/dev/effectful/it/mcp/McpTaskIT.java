package dev.effectful.it.mcp;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The task travels over MCP: a client JVM in a task calls a guarded tool of a server JVM over the SDK's
 * streamable HTTP transport on loopback, both with the real agent. Effects are counted by a loopback
 * ledger in this JVM, which outlives a kill -9 of the server.
 */
class McpTaskIT extends McpServerTest {

    @Test
    void aRephrasedRetryInTheClientsTaskRunsTheRemoteEffectOnce() throws Exception {
        Path journal = tmp.resolve("journal");

        Map<String, String> r = client(startServer(journal), "rephrased", "t-rephrased", 60_000, null);

        assertThat(r.get("first")).isEqualTo("invoice o-1 sent for client-side-actor in task t-rephrased");
        assertThat(r.get("second")).isEqualTo(r.get("first"));
        assertThat(ledger.effects("invoice", "o-1|client-side-actor")).isEqualTo(1);
        JournalContents j = JournalContents.of(journal);
        List<JournalRecord> intents = j.of(RecordType.INTENT);
        assertThat(intents).hasSize(1);
        assertThat(intents.get(0).task()).isEqualTo("t-rephrased");
        assertThat(intents.get(0).actor()).isEqualTo("client-side-actor");
        assertThat(j.of(RecordType.DEDUP)).extracting(JournalRecord::task).containsExactly("t-rephrased");
    }

    @Test
    void aClientWithOneSecondLeftIsRefusedByAToolThatNeedsTwo() throws Exception {
        Path journal = tmp.resolve("journal");

        Map<String, String> r = client(startServer(journal), "charge", "t-budget", 1_000, null);

        assertThat(r.get("charge")).startsWith("error:");
        assertThat(ledger.effects("charge", "o-2")).isZero();
        JournalContents j = JournalContents.of(journal);
        assertThat(j.of(RecordType.INTENT)).isEmpty();
        assertThat(j.of(RecordType.REFUSED)).extracting(JournalRecord::task).containsExactly("t-budget");
    }

    @Test
    void aMalformedEntryIsIgnoredWithOneWarningAndTheCallStillRunsGuarded() throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp server = server(journal);
        String url = listening(server);

        Map<String, String> r = client(url, "malformed", "t-malformed", 60_000, null);

        assertThat(r.get("malformed")).startsWith("invoice o-5 sent for nobody in task ");
        assertThat(ledger.effects("invoice", "o-5|")).isEqualTo(1);
        List<JournalRecord> intents = JournalContents.of(journal).of(RecordType.INTENT);
        assertThat(intents).hasSize(1);
        assertThat(intents.get(0).task()).isNotIn("42", "t-malformed");
        assertThat(server.stderr().lines().filter(l -> l.contains("malformed dev.effectful/task"))).hasSize(1);
        assertThat(server.stderr()).doesNotContain("lots");
    }

    @Test
    void afterAKill9MidCallTheRepeatIsProbedNotRerun() throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp first = server(journal);
        String url = listening(first);
        ForkedApp caller = clientApp(url, "ship", "t-ship", 120_000, null).start(tmp.resolve("logs"));
        await().atMost(START).until(() -> ledger.effects("ship", "o-3") == 1);
        first.kill9();
        caller.awaitExit(START);

        String again = startServer(journal);
        Map<String, String> r = client(again, "ship", "t-ship", 120_000, null);

        assertThat(r.get("ship")).isEqualTo("shipped o-3");
        assertThat(ledger.effects("ship", "o-3")).isEqualTo(1);
        assertThat(ledger.hits("/apply-then-hang/ship")).isEqualTo(1);
        JournalContents j = JournalContents.of(journal);
        assertThat(j.of(RecordType.INTENT)).extracting(JournalRecord::task).containsExactly("t-ship");
        assertThat(j.of(RecordType.PROBE)).extracting(JournalRecord::task, JournalRecord::probe)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("t-ship", ProbeResult.FOUND));
    }

    @Test
    void twoPrincipalsClaimingTheSameTaskEachRunTheirOwnEffectAndGetTheirOwnResult() throws Exception {
        Path journal = tmp.resolve("journal");
        String url = startServer(journal);

        Map<String, String> alice = client(url, "invoice", "t-shared", 60_000, "alice");
        Map<String, String> bob = client(url, "invoice", "t-shared", 60_000, "bob");
        Map<String, String> aliceAgain = client(url, "invoice", "t-shared", 60_000, "alice");

        assertThat(alice.get("invoice")).isEqualTo("invoice o-4 sent for alice in task t-shared");
        assertThat(bob.get("invoice")).isEqualTo("invoice o-4 sent for bob in task t-shared");
        assertThat(aliceAgain.get("invoice")).isEqualTo(alice.get("invoice"));
        assertThat(ledger.effects("invoice", "o-4|alice")).isEqualTo(1);
        assertThat(ledger.effects("invoice", "o-4|bob")).isEqualTo(1);
        assertThat(JournalContents.of(journal).of(RecordType.INTENT)).extracting(JournalRecord::actor)
                .containsExactlyInAnyOrder("alice", "bob");
    }

    @Test
    void overStdioTheClientStartsItsServerAndTheTaskTravelsByDefault() throws Exception {
        Path journal = tmp.resolve("journal");

        Map<String, String> r = stdioClient(journal, null).run(tmp.resolve("logs"), START).results();

        assertThat(r.get("first")).isEqualTo("invoice o-1 sent for client-side-actor in task t-stdio");
        assertThat(r.get("second")).isEqualTo(r.get("first"));
        assertThat(ledger.effects("invoice", "o-1|client-side-actor")).isEqualTo(1);
        assertThat(JournalContents.of(journal).of(RecordType.INTENT)).extracting(JournalRecord::task)
                .containsExactly("t-stdio");
    }

    @Test
    void trustTaskFalseIgnoresTheEntryEvenOverStdio() throws Exception {
        Path journal = tmp.resolve("journal");

        Map<String, String> r = stdioClient(journal, "false").run(tmp.resolve("logs"), START).results();

        // each call is then a task of its own, as without the integration: the rephrased retry acts again
        assertThat(r.get("first")).startsWith("invoice o-1 sent for nobody in task ");
        assertThat(ledger.effects("invoice", "o-1|")).isEqualTo(2);
        assertThat(JournalContents.of(journal).of(RecordType.INTENT)).extracting(JournalRecord::task)
                .doesNotContain("t-stdio").hasSize(2);
    }

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /**
     * Behind a reverse proxy on the server's host every client's peer address is loopback. A request that
     * carries a proxy's header ({@code Forwarded}, {@code X-Forwarded-*}, {@code X-Real-IP}) is therefore
     * not believed under the default {@code trust_task=loopback}: a remote client that claims another
     * client's task does not get that task's stored result, and its calls run guarded in tasks of their own.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRequestForwardedByAProxyIsNotTrustedAsLoopback(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp server = started(ForkedApp.jdk(jdk).main(McpServerApp.class)
                .sysprop("effectful.journal.dir", journal)
                .sysprop("ledger", ledger.url()));
        String url = listening(server);

        Map<String, String> owner = client(url, "rephrased", "t-owner", 60_000, null);
        assertThat(owner.get("first")).isEqualTo("invoice o-1 sent for client-side-actor in task t-owner");
        assertThat(ledger.effects("invoice", "o-1|client-side-actor")).isEqualTo(1);

        List<String> headers = List.of("X-Forwarded-For: 203.0.113.7", "Forwarded: for=203.0.113.7;proto=https",
                "X-Real-IP: 203.0.113.7", "X-Forwarded-Host: mcp.example.com");
        int runs = 0;
        for (String header : headers) {
            Map<String, String> remote = clientApp(url, "rephrased", "t-owner", 60_000, null).sysprop("it.header", header)
                    .run(tmp.resolve("logs"), START).results();
            runs += 2;
            // not the owner's stored result: each call ran in a task of its own, as an untrusted entry does
            assertThat(remote.get("first")).as(header).startsWith("invoice o-1 sent for nobody in task ")
                    .doesNotContain("t-owner");
            assertThat(ledger.effects("invoice", "o-1|")).as(header).isEqualTo(runs);
        }
        assertThat(ledger.effects("invoice", "o-1|client-side-actor")).isEqualTo(1);
        assertThat(JournalContents.of(journal).of(RecordType.INTENT)).filteredOn(i -> "t-owner".equals(i.task()))
                .hasSize(1);
        // the container may give header names in lower case
        assertThat(server.stderr().toLowerCase(java.util.Locale.ROOT)).contains("forwarded by a proxy (x-forwarded-for header)",
                "a request a proxy forwarded is not a loopback caller");
    }

    private ForkedApp stdioClient(Path serverJournal, String trust) {
        ForkedApp client = ForkedApp.jdk(Jdk.current()).main(McpClientApp.class, "stdio", "rephrased", "t-stdio", "60000")
                .sysprop("effectful.journal.dir", tmp.resolve("client-journal"))
                .sysprop("it.agent", ForkedApp.AGENT_JAR)
                .sysprop("it.server.journal", serverJournal)
                .sysprop("ledger", ledger.url());
        if (trust != null) {
            client.sysprop("it.server.trust", trust);
        }
        return client;
    }

    private String startServer(Path journal) throws Exception {
        return listening(server(journal));
    }

    private ForkedApp server(Path journal) throws IOException {
        return started(ForkedApp.jdk(Jdk.current()).main(McpServerApp.class)
                .sysprop("effectful.journal.dir", journal)
                .sysprop("ledger", ledger.url()));
    }

    private ForkedApp clientApp(String url, String scenario, String task, long budgetMs, String user) {
        List<String> args = new ArrayList<>(List.of(url, scenario, task, Long.toString(budgetMs)));
        if (user != null) {
            args.add(user);
        }
        return ForkedApp.jdk(Jdk.current()).main(McpClientApp.class, args.toArray(String[]::new))
                .sysprop("effectful.journal.dir", tmp.resolve("client-journal"));
    }

    private Map<String, String> client(String url, String scenario, String task, long budgetMs, String user)
            throws Exception {
        return clientApp(url, scenario, task, budgetMs, user).run(tmp.resolve("logs"), START).results();
    }
}

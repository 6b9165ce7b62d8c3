package dev.effectful.it.springai;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.it.springai.app.SpringAiApp;
import dev.effectful.it.support.LedgerForkTest;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring AI: a {@code ChatClient} call made with no {@code Task.open} runs in a task, the
 * conversation id of its advisor parameters, else one of its own; the model's rephrased retry of a
 * send whose answer was lost is probed, not repeated. Forked JVMs with the real agent jar, the real
 * Spring AI tool loop over a scripted model, and a loopback mail service counting the sends. Spring AI
 * 2.0.1 by default; {@code -Dit.spring-ai.version=1.1.2} runs the same tests on 1.1.2 (the agent's
 * advice is compiled against 2.0.1 either way).
 */
class SpringAiTasksIT extends LedgerForkTest {

    private ForkedApp app(String... args) {
        return forked(SpringAiApp.class, args);
    }

    private List<JournalRecord> sends(RecordType type) throws Exception {
        return JournalContents.of(tmp.resolve("journal")).where(r -> r.type() == type && "send_email".equals(r.call()));
    }

    @Test
    void conversationIdIsTheTaskAndTheRephrasedRetryIsProbedNotRepeated() throws Exception {
        ForkedApp run = app("conversation", "conv-42", "bob@example.com").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = run.results();

        assertThat(ledger.effects("send_email", "bob@example.com")).as("mails sent").isEqualTo(1);
        assertThat(r).containsEntry("bodies", "1").containsEntry("answer", "done");
        assertThat(r).as("the Spring AI the build asked for").containsEntry("spring_ai",
                System.getProperty("it.spring-ai.version", "2").substring(0, 1));
        assertThat(r.get("tasks_seen")).as("body, then probe").isEqualTo("conv-42,conv-42");
        assertThat(r.get("tool_answers")).as("the model read the lost answer, then the probe's finding")
                .contains("\"outcome\":\"unknown\"").contains("already sent to bob@example.com");
        assertThat(r).as("the task ends with the call").containsEntry("task_after", "(none)");

        assertThat(sends(RecordType.INTENT)).extracting(JournalRecord::task).containsExactly("conv-42");
        assertThat(sends(RecordType.OUTCOME)).extracting(JournalRecord::outcome).first().isEqualTo(OutcomeWord.UNKNOWN);
        assertThat(sends(RecordType.PROBE)).singleElement().satisfies(p -> {
            assertThat(p.task()).isEqualTo("conv-42");
            assertThat(p.probe()).isEqualTo(ProbeResult.FOUND);
        });
    }

    @Test
    void aRestartAfterKill9OnTheSameConversationProbesInsteadOfSendingAgain() throws Exception {
        ForkedApp first = app("hang", "conv-77", "carol@example.com").sysprop("answer.timeout.ms", 120_000)
                .start(tmp.resolve("logs"));
        await().atMost(Duration.ofSeconds(90)).until(() -> ledger.effects("send_email", "carol@example.com") == 1);
        first.kill9();
        assertThat(first.results()).as("killed mid-call").doesNotContainKey("answer");

        ForkedApp second = app("resume", "conv-77", "carol@example.com").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = second.results();

        assertThat(ledger.effects("send_email", "carol@example.com")).as("mails sent").isEqualTo(1);
        assertThat(r).containsEntry("bodies", "0").containsEntry("tasks_seen", "conv-77");
        assertThat(r.get("tool_answers")).as("the probe's finding, as Spring AI hands it to the model")
                .isEqualTo("\"already sent to carol@example.com\"");
        assertThat(sends(RecordType.INTENT)).extracting(JournalRecord::task).containsExactly("conv-77");
        assertThat(sends(RecordType.PROBE)).singleElement().satisfies(p -> {
            assertThat(p.task()).isEqualTo("conv-77");
            assertThat(p.probe()).isEqualTo(ProbeResult.FOUND);
            assertThat(p.pid()).isEqualTo(second.pid());
        });
    }

    @Test
    void withoutAConversationIdEachCallIsATaskOfItsOwnAndARetryWithinItIsStillCaught() throws Exception {
        ForkedApp run = app("own", "dave@example.com").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = run.results();

        List<String> call1 = List.of(r.get("tasks_call1").split(","));
        List<String> call2 = List.of(r.get("tasks_call2").split(","));
        assertThat(call1).hasSize(2).allMatch(id -> id.startsWith("spring-ai-")).containsOnly(call1.get(0));
        assertThat(call2).hasSize(2).allMatch(id -> id.startsWith("spring-ai-")).containsOnly(call2.get(0));
        assertThat(call1.get(0)).as("a task per call").isNotEqualTo(call2.get(0));

        // each call sends once and probes its own retry; the second call is a new task, so a new send
        assertThat(ledger.effects("send_email", "dave@example.com")).isEqualTo(2);
        assertThat(r).containsEntry("bodies", "2").containsEntry("task_after", "(none)");
        assertThat(sends(RecordType.INTENT)).extracting(JournalRecord::task).containsExactly(call1.get(0), call2.get(0));
        assertThat(sends(RecordType.PROBE)).extracting(JournalRecord::task).containsExactly(call1.get(0), call2.get(0));
    }

    @Test
    void anExplicitTaskOpenWinsOverTheConversationId() throws Exception {
        ForkedApp run = app("explicit", "order-9", "conv-99", "erin@example.com").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = run.results();

        assertThat(r).containsEntry("tasks_seen", "order-9,order-9").containsEntry("bodies", "1");
        assertThat(r).as("the call left the application's task open").containsEntry("task_after_call", "order-9");
        assertThat(ledger.effects("send_email", "erin@example.com")).isEqualTo(1);
        assertThat(sends(RecordType.INTENT)).extracting(JournalRecord::task).containsExactly("order-9");
        assertThat(JournalContents.of(tmp.resolve("journal")).where(rec -> "conv-99".equals(rec.task()))).isEmpty();
    }
}

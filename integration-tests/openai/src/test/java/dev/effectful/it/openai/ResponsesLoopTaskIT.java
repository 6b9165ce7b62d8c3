package dev.effectful.it.openai;

import dev.effectful.agent.e2e.DedupLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.it.openai.app.GptApp;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.RecordType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The OpenAI Java SDK has no runner: the function-calling loop is the application's, and the documented
 * line, {@code Task.open} with the Responses API's conversation id around it, is what makes it a task.
 * With it, the model's rephrased retry of a charge whose answer was lost is re-sent with the same key and
 * charged once, a restart after kill -9 with the same conversation finds the charge again, and the async
 * client's retry of a 429 keeps the task; without it, nothing ties the two calls together (pinned, as
 * the docs say). A scripted model and a payment service that deduplicates on {@code Idempotency-Key}.
 */
class ResponsesLoopTaskIT {

    private static final String CONVERSATION = "conv_68a1f0c3";

    @TempDir
    Path tmp;

    private DedupLedger service;

    @BeforeEach
    void start() throws Exception {
        service = new DedupLedger();
    }

    @AfterEach
    void stop() throws Exception {
        service.close();
    }

    @Test
    void inTheConversationsTaskTheRephrasedRetryOfALostChargeIsChargedOnce() throws Exception {
        ForkedApp app = gpt("sync").sysprop("lose", 1500).run(tmp.resolve("logs"), Duration.ofSeconds(90));
        Map<String, String> r = app.results();

        assertThat(r.get("answer")).as(app.stderr()).isEqualTo("The order is paid.");
        assertThat(service.charges("o-7")).as("charges the service applied").isEqualTo(1);
        List<String> keys = service.keys("o-7");
        assertThat(keys).hasSize(2).doesNotContain(DedupLedger.NONE);
        assertThat(keys.get(1)).as("the retry carries the lost attempt's key").isEqualTo(keys.get(0));
        assertThat(r.get("bodies").split(",")).hasSize(2).allSatisfy(b -> assertThat(b).startsWith(CONVERSATION + "@"));
        assertThat(JournalContents.of(tmp.resolve("journal")).forCall("charge_card"))
                .filteredOn(c -> c.type() == RecordType.INTENT)
                .extracting(JournalRecord::task, JournalRecord::intentKey, JournalRecord::attempt)
                .containsExactly(tuple(CONVERSATION, keys.get(0), 1), tuple(CONVERSATION, keys.get(0), 2));
    }

    @Test
    void afterAKillNineTheSameConversationFindsTheChargeAgain() throws Exception {
        ForkedApp first = gpt("sync").sysprop("lose", 60_000).start(tmp.resolve("logs1"));
        await().atMost(Duration.ofSeconds(60)).until(() -> service.charges("o-7") == 1);
        first.kill9();

        ForkedApp second = gpt("sync").run(tmp.resolve("logs2"), Duration.ofSeconds(90));
        assertThat(second.results().get("answer")).as(second.stderr()).isEqualTo("The order is paid.");
        assertThat(service.charges("o-7")).as("charges the service applied").isEqualTo(1);
        List<String> keys = service.keys("o-7");
        assertThat(keys).hasSize(2);
        assertThat(keys.get(1)).as("re-sent with the key of the attempt the kill cut").isEqualTo(keys.get(0));
    }

    @Test
    void theAsyncClientsRetryOfA429KeepsTheTask() throws Exception {
        ForkedApp app = gpt("async").sysprop("lose", 1500).run(tmp.resolve("logs"), Duration.ofSeconds(90));
        Map<String, String> r = app.results();

        assertThat(r.get("answer")).as(app.stderr()).isEqualTo("The order is paid.");
        assertThat(r.get("rate_limited")).as("the model answered 429 once, between the two tool calls").isEqualTo("1");
        assertThat(r.get("bodies").split(",")).hasSize(2).allSatisfy(b -> assertThat(b).startsWith(CONVERSATION + "@"));
        assertThat(service.charges("o-7")).isEqualTo(1);
        List<String> keys = service.keys("o-7");
        assertThat(keys).hasSize(2).doesNotContain(DedupLedger.NONE);
        assertThat(keys.get(1)).as("same key on the header after the SDK's retry").isEqualTo(keys.get(0));
        assertThat(app.stderr()).doesNotContain("outside any task");
    }

    /** What the docs say of the SDK without the line, pinned: each call is its own task, charged again. */
    @Test
    void withoutTheLineNothingTiesTheRetryToTheFirstCall() throws Exception {
        ForkedApp app = gpt("bare").sysprop("lose", 1500).run(tmp.resolve("logs"), Duration.ofSeconds(90));

        assertThat(app.results().get("bodies").split(",")).hasSize(2).allSatisfy(b -> assertThat(b).startsWith("none@"));
        assertThat(service.charges("o-7")).as("two implicit tasks, two intents").isEqualTo(2);
        assertThat(service.keys("o-7")).hasSize(2).doesNotHaveDuplicates();
    }

    private ForkedApp gpt(String mode) {
        return ForkedApp.jdk(Jdk.current()).main(GptApp.class, mode, CONVERSATION)
                .sysprop("ledger", service.url())
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .env("HOME", tmp.resolve("home").toString());
    }
}

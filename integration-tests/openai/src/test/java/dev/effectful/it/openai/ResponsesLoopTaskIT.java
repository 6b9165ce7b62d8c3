package dev.effectful.it.openai;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.it.openai.app.GptApp;
import dev.effectful.it.support.KeyedChargeScenario;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The OpenAI Java SDK has no runner: the function-calling loop is the application's, and the documented
 * line, {@code Task.open} with the Responses API's conversation id around it, is what makes it a task.
 * With it, the model's rephrased retry of a charge whose answer was lost is re-sent with the same key and
 * charged once, a restart after kill -9 with the same conversation finds the charge again, and the async
 * client's retry of a 429 keeps the task; without it, nothing ties the two calls together (pinned, as
 * the docs say). A scripted model and a payment service that deduplicates on {@code Idempotency-Key}.
 */
class ResponsesLoopTaskIT extends KeyedChargeScenario {

    private static final String CONVERSATION = "conv_68a1f0c3";

    @Test
    void inTheConversationsTaskTheRephrasedRetryOfALostChargeIsChargedOnce() throws Exception {
        Map<String, String> r = runWithALostAnswer("sync").results();

        List<String> keys = assertChargedOnceUnderOneKey("the retry carries the lost attempt's key");
        assertThat(r.get("bodies").split(",")).hasSize(2).allSatisfy(b -> assertThat(b).startsWith(CONVERSATION + "@"));
        assertThat(journaled(CHARGE))
                .filteredOn(c -> c.type() == RecordType.INTENT)
                .extracting(JournalRecord::task, JournalRecord::intentKey, JournalRecord::attempt)
                .containsExactly(tuple(CONVERSATION, keys.get(0), 1), tuple(CONVERSATION, keys.get(0), 2));
    }

    @Test
    void afterAKillNineTheSameConversationFindsTheChargeAgain() throws Exception {
        assertAKillNineThenTheSameKey("sync");
    }

    @Test
    void theAsyncClientsRetryOfA429KeepsTheTask() throws Exception {
        assertTheAsyncRetryOfA429KeepsTheTask(CONVERSATION);
    }

    /** What the docs say of the SDK without the line, pinned: each call is its own task, charged again. */
    @Test
    void withoutTheLineNothingTiesTheRetryToTheFirstCall() throws Exception {
        ForkedApp app = app("bare").sysprop("lose", 1500).run(tmp.resolve("logs"), Duration.ofSeconds(90));

        assertThat(app.results().get("bodies").split(",")).hasSize(2).allSatisfy(b -> assertThat(b).startsWith("none@"));
        assertThat(service.charges("o-7")).as("two implicit tasks, two intents").isEqualTo(2);
        assertThat(service.keys("o-7")).hasSize(2).doesNotHaveDuplicates();
    }

    @Override
    protected ForkedApp app(String mode) {
        return forked(GptApp.class, mode, CONVERSATION);
    }
}

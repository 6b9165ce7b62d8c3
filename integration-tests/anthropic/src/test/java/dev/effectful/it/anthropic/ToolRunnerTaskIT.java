package dev.effectful.it.anthropic;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.it.anthropic.app.ClaudeApp;
import dev.effectful.it.support.KeyedChargeScenario;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The Anthropic Java SDK with the agent as its only flag: a {@code BetaToolRunner}'s iteration is one
 * task, so the model's rephrased retry of a charge whose answer was lost is re-sent with the same key
 * and charged once; {@code Task.open} around the loop is the id a restart after kill -9 finds again;
 * the async client's retry of a 429 keeps the task. A scripted model and a payment service that
 * deduplicates on {@code Idempotency-Key}, both on loopback; the real SDK and agent jar.
 */
class ToolRunnerTaskIT extends KeyedChargeScenario {

    @Test
    void theRunnerIsOneTaskSoTheRephrasedRetryOfALostChargeIsChargedOnce() throws Exception {
        Map<String, String> r = runWithALostAnswer("runner").results();

        List<String> keys = assertChargedOnceUnderOneKey("the retry carries the lost attempt's key");
        String[] bodies = r.get("bodies").split(",");
        assertThat(bodies).hasSize(2).allSatisfy(b -> assertThat(b).startsWith("anthropic-").endsWith("@main"));
        assertThat(bodies[1].substring(0, bodies[1].indexOf('@'))).isEqualTo(bodies[0].substring(0, bodies[0].indexOf('@')));
        assertThat(r.get("task_after")).as("the runner's task is not left on the thread").isEqualTo("none");

        List<JournalRecord> charges = journaled(CHARGE);
        assertThat(charges).extracting(JournalRecord::task).containsOnly(bodies[0].substring(0, bodies[0].indexOf('@')));
        assertThat(charges).as("metadata.user_id is the actor").extracting(JournalRecord::actor).containsOnly("ada");
        assertOneIntentTwoAttempts(charges, keys);
    }

    @Test
    void afterAKillNineTheDocumentedTaskOpenFindsTheChargeAgain() throws Exception {
        List<String> keys = assertAKillNineThenTheSameKey("runner-task");
        List<JournalRecord> charges = journaled(CHARGE);
        assertThat(charges).extracting(JournalRecord::task).containsOnly("order-o-7");
        assertOneIntentTwoAttempts(charges, keys);
    }

    @Test
    void theAsyncClientsRetryOfA429KeepsTheTask() throws Exception {
        assertTheAsyncRetryOfA429KeepsTheTask("order-o-9");
        assertThat(journaled(CHARGE)).extracting(JournalRecord::task).containsOnly("order-o-9");
    }

    /** One intent, two attempts: the lost one and its re-send, under the key the service saw twice. */
    private static void assertOneIntentTwoAttempts(List<JournalRecord> charges, List<String> keys) {
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT)
                .extracting(JournalRecord::intentKey, JournalRecord::attempt)
                .containsExactly(tuple(keys.get(0), 1), tuple(keys.get(0), 2));
    }

    @Override
    protected ForkedApp app(String mode) {
        return forked(ClaudeApp.class, mode);
    }
}

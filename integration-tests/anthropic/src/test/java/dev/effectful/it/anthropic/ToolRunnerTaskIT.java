package dev.effectful.it.anthropic;

import dev.effectful.agent.e2e.DedupLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.it.anthropic.app.ClaudeApp;
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
 * The Anthropic Java SDK with the agent as its only flag: a {@code BetaToolRunner}'s iteration is one
 * task, so the model's rephrased retry of a charge whose answer was lost is re-sent with the same key
 * and charged once; {@code Task.open} around the loop is the id a restart after kill -9 finds again;
 * the async client's retry of a 429 keeps the task. A scripted model and a payment service that
 * deduplicates on {@code Idempotency-Key}, both on loopback; the real SDK and agent jar.
 */
class ToolRunnerTaskIT {

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
    void theRunnerIsOneTaskSoTheRephrasedRetryOfALostChargeIsChargedOnce() throws Exception {
        ForkedApp app = claude("runner").sysprop("lose", 1500).run(tmp.resolve("logs"), Duration.ofSeconds(90));
        Map<String, String> r = app.results();
        String context = app.stderr();

        assertThat(r.get("answer")).as(context).isEqualTo("The order is paid.");
        assertThat(service.charges("o-7")).as("charges the service applied").isEqualTo(1);
        List<String> keys = service.keys("o-7");
        assertThat(keys).as("the retry carries the lost attempt's key").hasSize(2).doesNotContain(DedupLedger.NONE);
        assertThat(keys.get(1)).isEqualTo(keys.get(0));
        String[] bodies = r.get("bodies").split(",");
        assertThat(bodies).hasSize(2).allSatisfy(b -> assertThat(b).startsWith("anthropic-").endsWith("@main"));
        assertThat(bodies[1].substring(0, bodies[1].indexOf('@'))).isEqualTo(bodies[0].substring(0, bodies[0].indexOf('@')));
        assertThat(r.get("task_after")).as("the runner's task is not left on the thread").isEqualTo("none");

        List<JournalRecord> charges = JournalContents.of(tmp.resolve("journal")).forCall("charge_card");
        assertThat(charges).extracting(JournalRecord::task).containsOnly(bodies[0].substring(0, bodies[0].indexOf('@')));
        assertThat(charges).as("metadata.user_id is the actor").extracting(JournalRecord::actor).containsOnly("ada");
        // one intent, two attempts: the lost one and its re-send, under the key the service saw twice
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT)
                .extracting(JournalRecord::intentKey, JournalRecord::attempt)
                .containsExactly(tuple(keys.get(0), 1), tuple(keys.get(0), 2));
    }

    @Test
    void afterAKillNineTheDocumentedTaskOpenFindsTheChargeAgain() throws Exception {
        ForkedApp first = claude("runner-task").sysprop("lose", 60_000).start(tmp.resolve("logs1"));
        // the service has charged; its answer never comes: the process dies before it knows
        await().atMost(Duration.ofSeconds(60)).until(() -> service.charges("o-7") == 1);
        first.kill9();

        ForkedApp second = claude("runner-task").run(tmp.resolve("logs2"), Duration.ofSeconds(90));
        Map<String, String> r = second.results();
        assertThat(r.get("answer")).as(second.stderr()).isEqualTo("The order is paid.");
        assertThat(service.charges("o-7")).as("charges the service applied").isEqualTo(1);
        List<String> keys = service.keys("o-7");
        assertThat(keys).hasSize(2);
        assertThat(keys.get(1)).as("re-sent with the key of the attempt the kill cut").isEqualTo(keys.get(0));
        List<JournalRecord> charges = JournalContents.of(tmp.resolve("journal")).forCall("charge_card");
        assertThat(charges).extracting(JournalRecord::task).containsOnly("order-o-7");
        // one intent, two attempts: the lost one and its re-send, under the key the service saw twice
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT)
                .extracting(JournalRecord::intentKey, JournalRecord::attempt)
                .containsExactly(tuple(keys.get(0), 1), tuple(keys.get(0), 2));
    }

    @Test
    void theAsyncClientsRetryOfA429KeepsTheTask() throws Exception {
        ForkedApp app = claude("async").sysprop("lose", 1500).run(tmp.resolve("logs"), Duration.ofSeconds(90));
        Map<String, String> r = app.results();

        assertThat(r.get("answer")).as(app.stderr()).isEqualTo("The order is paid.");
        assertThat(r.get("rate_limited")).as("the model answered 429 once, between the two tool calls").isEqualTo("1");
        assertThat(r.get("bodies").split(",")).hasSize(2).allSatisfy(b -> assertThat(b).startsWith("order-o-9@"));
        assertThat(service.charges("o-7")).isEqualTo(1);
        List<String> keys = service.keys("o-7");
        assertThat(keys).hasSize(2).doesNotContain(DedupLedger.NONE);
        assertThat(keys.get(1)).as("same key on the header after the SDK's retry").isEqualTo(keys.get(0));
        assertThat(app.stderr()).doesNotContain("outside any task");
        assertThat(JournalContents.of(tmp.resolve("journal")).forCall("charge_card"))
                .extracting(JournalRecord::task).containsOnly("order-o-9");
    }

    private ForkedApp claude(String mode) {
        return ForkedApp.jdk(Jdk.current()).main(ClaudeApp.class, mode)
                .sysprop("ledger", service.url())
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .env("HOME", tmp.resolve("home").toString());
    }
}

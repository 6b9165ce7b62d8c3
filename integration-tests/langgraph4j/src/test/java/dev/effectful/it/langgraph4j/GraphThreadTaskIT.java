package dev.effectful.it.langgraph4j;

import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.it.langgraph4j.app.GraphShopApp;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.ProbeResult;
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
import static org.awaitility.Awaitility.await;

/**
 * LangGraph4j's LangChain4j agent executor with the agent as its only flag and no {@code Task.open}: a
 * run {@code graph.invoke(inputs, RunnableConfig.builder().threadId(..))} runs in the thread id's task,
 * so every tool call of the run (LangChain4j's tool executor, called from the graph's edge) is in it.
 * The scripted OpenAI model's rephrased retry of a charge whose answer was lost is probed, never run again,
 * in the same process and after a kill -9. The loopback ledger counts the charges.
 */
class GraphThreadTaskIT {

    @TempDir
    Path tmp;

    private EffectLedger ledger;

    @BeforeEach
    void startLedger() throws Exception {
        ledger = new EffectLedger();
    }

    @AfterEach
    void stopLedger() {
        ledger.close();
    }

    @Test
    void theThreadIdIsTheTaskSoARephrasedRetryIsProbedNotRepeated() throws Exception {
        ForkedApp app = shop("thread-1").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();

        assertThat(ledger.effects("charge", "o-7")).as("charges the service applied").isEqualTo(1);
        assertThat(r.get("answer")).isEqualTo("charge o-7: done:charge:o-7");
        assertThat(r.get("charge_bodies")).as("one body ran, in the thread id's task")
                .startsWith("thread-1@").doesNotContain(",");
        assertThat(r.get("task_after")).as("the task closes with the run").isEqualTo("none");

        List<JournalRecord> charges = JournalContents.of(tmp.resolve("journal")).forCall("charge_card");
        assertThat(charges).extracting(JournalRecord::task).containsOnly("thread-1");
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT).hasSize(1);
        assertThat(charges).filteredOn(c -> c.type() == RecordType.PROBE).extracting(JournalRecord::probe)
                .containsExactly(ProbeResult.FOUND);
    }

    @Test
    void afterAKillNineTheSameThreadIdProbesInsteadOfChargingAgain() throws Exception {
        ForkedApp first = shop("thread-2").sysprop("lose.ms", 60_000).start(tmp.resolve("logs"));
        // the service has applied the charge; its answer never comes: the process dies before it knows
        await().atMost(Duration.ofSeconds(90)).until(() -> ledger.effects("charge", "o-7") == 1);
        first.kill9();

        ForkedApp second = shop("thread-2").sysprop("phrasing", 2).run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = second.results();
        assertThat(ledger.effects("charge", "o-7")).as("charges the service applied").isEqualTo(1);
        assertThat(r.get("charge_bodies")).as("no body ran after the restart").isEmpty();
        assertThat(r.get("answer")).isEqualTo("charge o-7: done:charge:o-7");

        List<JournalRecord> charges = JournalContents.of(tmp.resolve("journal")).forCall("charge_card");
        assertThat(charges).extracting(JournalRecord::task).containsOnly("thread-2");
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT).hasSize(1);
        assertThat(charges).filteredOn(c -> c.type() == RecordType.PROBE).extracting(JournalRecord::probe)
                .containsExactly(ProbeResult.FOUND);
    }

    private ForkedApp shop(String thread) {
        return ForkedApp.jdk(Jdk.current()).main(GraphShopApp.class, thread)
                .sysprop("ledger", ledger.url())
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .env("HOME", tmp.resolve("home").toString());
    }
}

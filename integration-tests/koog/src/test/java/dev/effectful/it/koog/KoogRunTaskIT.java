package dev.effectful.it.koog;

import dev.effectful.it.koog.app.KoogShopApp;
import dev.effectful.it.support.FrameworkTaskScenario;
import dev.effectful.core.journal.JournalRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JetBrains Koog with the agent as its only flag and no {@code Task.open}: every tool call of an
 * {@code agent.run(input, sessionId)} runs in the task of the run's id, which Koog takes from the session
 * id when one is given and makes up otherwise. The scripted OpenAI model's rephrased retry of a charge
 * whose answer was lost is probed, never run again: within one run without a session id, and after a
 * kill -9 on the same session id. The loopback ledger counts the charges.
 */
class KoogRunTaskIT extends FrameworkTaskScenario {

    /** The session id {@code -} runs without one: Koog makes the run's id up. */
    KoogRunTaskIT() {
        super(KoogShopApp.class);
    }

    @Test
    void withoutASessionIdTheRunIsATaskOfItsOwnThatCatchesTheRephrasedRetry() throws Exception {
        Map<String, String> r = runWithRephrasedRetry("-");
        assertThat(r.get("task_after")).as("the task closes with the tool call").isEqualTo("none");

        List<JournalRecord> charges = journaled(CHARGE);
        String runTask = charges.get(0).task();
        assertThat(charges).extracting(JournalRecord::task).as("Koog's run id, the same for both calls").containsOnly(runTask);
        assertThat(r.get("charge_bodies")).as("one body ran, in the run's task").isEqualTo(r.get("charge_bodies").split(",")[0])
                .startsWith(runTask + "@");
        assertOneIntentAndAFoundProbe(charges);
    }

    @Test
    void afterAKillNineTheSameSessionIdProbesInsteadOfChargingAgain() throws Exception {
        assertAKillNineThenTheSameTaskProbes("koog-2");
    }
}

package dev.effectful.it.langgraph4j;

import dev.effectful.it.langgraph4j.app.GraphShopApp;
import dev.effectful.it.support.FrameworkTaskScenario;
import org.junit.jupiter.api.Test;

import java.util.Map;

/**
 * LangGraph4j's LangChain4j agent executor with the agent as its only flag and no {@code Task.open}: a
 * run {@code graph.invoke(inputs, RunnableConfig.builder().threadId(..))} runs in the thread id's task,
 * so every tool call of the run (LangChain4j's tool executor, called from the graph's edge) is in it.
 * The scripted OpenAI model's rephrased retry of a charge whose answer was lost is probed, never run again,
 * in the same process and after a kill -9. The loopback ledger counts the charges.
 */
class GraphThreadTaskIT extends FrameworkTaskScenario {

    GraphThreadTaskIT() {
        super(GraphShopApp.class);
    }

    @Test
    void theThreadIdIsTheTaskSoARephrasedRetryIsProbedNotRepeated() throws Exception {
        Map<String, String> r = runWithRephrasedRetry("thread-1");
        assertOneBodyThenTheTaskClosed(r, "thread-1@", "in the thread id's task", "the run");

        assertJournaledInTheTask("thread-1");
    }

    @Test
    void afterAKillNineTheSameThreadIdProbesInsteadOfChargingAgain() throws Exception {
        assertAKillNineThenTheSameTaskProbes("thread-2");
    }
}

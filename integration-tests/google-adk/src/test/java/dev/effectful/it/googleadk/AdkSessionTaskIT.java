package dev.effectful.it.googleadk;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.it.googleadk.app.AdkShopApp;
import dev.effectful.it.support.FrameworkTaskScenario;
import dev.effectful.core.journal.JournalRecord;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Google ADK with the agent as its only flag and no {@code Task.open}: every tool call of a
 * {@code Runner.runAsync(userId, sessionId, ...)} runs in the session's task, the user as its actor.
 * The scripted Gemini's rephrased retry of a charge whose answer was lost is probed, never run again,
 * in the same process and after a kill -9. The loopback ledger counts the charges.
 */
class AdkSessionTaskIT extends FrameworkTaskScenario {

    @Test
    void theSessionIsTheTaskSoARephrasedRetryIsProbedNotRepeated() throws Exception {
        Map<String, String> r = runWithRephrasedRetry("session-1");
        assertOneBodyThenTheTaskClosed(r, "session-1/ada@", "in the session's task, the user as actor", "the tool call");

        assertThat(assertJournaledInTheTask("session-1")).extracting(JournalRecord::actor).containsOnly("ada");
    }

    @Test
    void afterAKillNineTheSameSessionProbesInsteadOfChargingAgain() throws Exception {
        assertAKillNineThenTheSameTaskProbes("session-2");
    }

    /** The session's user is always {@code ada}. */
    @Override
    protected ForkedApp app(String session) {
        return forked(AdkShopApp.class, session, "ada");
    }
}

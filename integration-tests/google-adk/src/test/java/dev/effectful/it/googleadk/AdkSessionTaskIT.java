package dev.effectful.it.googleadk;

import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.it.googleadk.app.AdkShopApp;
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
 * Google ADK with the agent as its only flag and no {@code Task.open}: every tool call of a
 * {@code Runner.runAsync(userId, sessionId, ...)} runs in the session's task, the user as its actor.
 * The scripted Gemini's rephrased retry of a charge whose answer was lost is probed, never run again,
 * in the same process and after a kill -9. The loopback ledger counts the charges.
 */
class AdkSessionTaskIT {

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
    void theSessionIsTheTaskSoARephrasedRetryIsProbedNotRepeated() throws Exception {
        ForkedApp app = shop("session-1").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();

        assertThat(ledger.effects("charge", "o-7")).as("charges the service applied").isEqualTo(1);
        assertThat(r.get("answer")).isEqualTo("charge o-7: done:charge:o-7");
        assertThat(r.get("charge_bodies")).as("one body ran, in the session's task, the user as actor")
                .startsWith("session-1/ada@").doesNotContain(",");
        assertThat(r.get("task_after")).as("the task closes with the tool call").isEqualTo("none");

        List<JournalRecord> charges = JournalContents.of(tmp.resolve("journal")).forCall("charge_card");
        assertThat(charges).extracting(JournalRecord::task).containsOnly("session-1");
        assertThat(charges).extracting(JournalRecord::actor).containsOnly("ada");
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT).hasSize(1);
        assertThat(charges).filteredOn(c -> c.type() == RecordType.PROBE).extracting(JournalRecord::probe)
                .containsExactly(ProbeResult.FOUND);
    }

    @Test
    void afterAKillNineTheSameSessionProbesInsteadOfChargingAgain() throws Exception {
        ForkedApp first = shop("session-2").sysprop("lose.ms", 60_000).start(tmp.resolve("logs"));
        // the service has applied the charge; its answer never comes: the process dies before it knows
        await().atMost(Duration.ofSeconds(90)).until(() -> ledger.effects("charge", "o-7") == 1);
        first.kill9();

        ForkedApp second = shop("session-2").sysprop("phrasing", 2).run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = second.results();
        assertThat(ledger.effects("charge", "o-7")).as("charges the service applied").isEqualTo(1);
        assertThat(r.get("charge_bodies")).as("no body ran after the restart").isEmpty();
        assertThat(r.get("answer")).isEqualTo("charge o-7: done:charge:o-7");

        List<JournalRecord> charges = JournalContents.of(tmp.resolve("journal")).forCall("charge_card");
        assertThat(charges).extracting(JournalRecord::task).containsOnly("session-2");
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT).hasSize(1);
        assertThat(charges).filteredOn(c -> c.type() == RecordType.PROBE).extracting(JournalRecord::probe)
                .containsExactly(ProbeResult.FOUND);
    }

    private ForkedApp shop(String session) {
        return ForkedApp.jdk(Jdk.current()).main(AdkShopApp.class, session, "ada")
                .sysprop("ledger", ledger.url())
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .env("HOME", tmp.resolve("home").toString());
    }
}

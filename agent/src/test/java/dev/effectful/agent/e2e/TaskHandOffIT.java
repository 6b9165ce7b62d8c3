package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.HandOffApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The task crosses threads and ends on all of them: forked JVMs with the real agent jar, a real journal
 * and the loopback ledger counting effects. A task closed on another thread than the one that opened it
 * never reaches the next piece of work that pooled thread runs (plain pool, ForkJoinPool, an HTTP
 * server's request pool; carried work on a pool or virtual thread sees it end); a {@code java.util.Timer}
 * task, an async SDK's Timer-driven retry and {@code CompletableFuture.delayedExecutor} stages stay in the
 * task, so a rephrased repeat is deduplicated.
 */
class TaskHandOffIT extends ForkedJvmTest {

    @EveryJdk
    void aTaskClosedOnAnotherThreadNeverReachesTheNextWorkOfAPooledThread(Jdk jdk) throws Exception {
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp app = ran(jdk, ledger, HandOffApp.class, "closed");
            Map<String, String> r = app.results();
            JournalContents j = JournalContents.of(journal());
            for (String pool : List.of("pool", "fjp", "http")) {
                assertThat(r).as(pool).containsEntry(pool + "_first", "conv-" + pool)
                        .containsEntry(pool + "_same_worker", "true") // else the test would prove nothing
                        .containsEntry(pool + "_later", "none");
                // the later call ran (never answered with the closed conversation's stored result)
                assertThat(ledger.effectsOf("note_" + pool)).as("effects through %s", pool).isEqualTo(2);
            }
            List<JournalRecord> intents = j.of(RecordType.INTENT);
            assertThat(intents).filteredOn(i -> "conv-pool".equals(i.task())).hasSize(1);
            assertThat(intents).filteredOn(i -> "conv-fjp".equals(i.task())).hasSize(1);
            assertThat(intents).filteredOn(i -> "conv-http".equals(i.task())).hasSize(1);
            assertThat(intents).filteredOn(i -> i.task().startsWith("implicit-")).hasSizeGreaterThanOrEqualTo(3)
                    .allSatisfy(i -> assertThat(i.actor()).as("a later request's actor").isNullOrEmpty());
            List<String> carried = Integer.parseInt(r.get("jdk_feature")) >= 21
                    ? List.of("carried_pool", "carried_virtual") : List.of("carried_pool");
            for (String c : carried) {
                assertThat(r).as(c).containsEntry(c + "_open", "conv-" + c).containsEntry(c + "_closed", "none");
                assertThat(ledger.effectsOf("note_" + c)).as("effects through %s", c).isEqualTo(2);
            }
            assertThat(r).containsEntry("main_after", "none");
            assertThat(app.stderr()).doesNotContain("could not rewrite");
        }
    }

    @EveryJdk
    void timerTasksAndDelayedExecutorStagesRunInTheTask(Jdk jdk) throws Exception {
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp app = ran(jdk, ledger, HandOffApp.class, "timer");
            Map<String, String> r = app.results();
            assertThat(r).containsEntry("timer_task_1", "t-timer").containsEntry("timer_task_2", "t-timer")
                    .containsEntry("sdk_retry_1", "t-timer").containsEntry("sdk_retry_2", "t-timer")
                    .containsEntry("timer_periodic", "t-timer,t-timer")
                    .containsEntry("delayed_1", "t-timer").containsEntry("delayed_2", "t-timer")
                    .containsEntry("timer_after", "none");
            // each rephrased repeat is the same intent in the same task: one effect each
            assertThat(ledger.effectsOf("timer_task")).isEqualTo(1);
            assertThat(ledger.effectsOf("sdk_retry")).isEqualTo(1);
            assertThat(ledger.effectsOf("delayed")).isEqualTo(1);
            JournalContents j = JournalContents.of(journal());
            assertThat(j.of(RecordType.INTENT)).extracting(JournalRecord::task).containsOnly("t-timer");
            assertThat(app.stderr()).doesNotContain("could not rewrite").doesNotContain("outside any task");
        }
    }
}

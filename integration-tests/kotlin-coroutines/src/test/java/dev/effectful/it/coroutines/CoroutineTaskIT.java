package dev.effectful.it.coroutines;

import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.EveryJdk;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.ForkedJvmTest;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The task follows Kotlin coroutines: a Kotlin application run in forked JVMs with the real agent jar
 * (JDK 17 and 25), its blocking SEND tool called from coroutines on Dispatchers.IO, Default and Unconfined
 * after delays and thread changes, the loopback ledger counting effects. With the effectful-kotlin
 * element every call sees the task, so rephrased repeats are one effect; a task opened and closed across
 * IO threads leaves no worker bound.
 */
class CoroutineTaskIT extends ForkedJvmTest {

    @EveryJdk
    void aToolOnAnyDispatcherSeesTheTaskAfterSuspensionsAndARephrasedRepeatIsOneEffect(Jdk jdk) throws Exception {
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp app = ran(jdk, ledger, CoroutineApp.class, "dispatchers");
            Map<String, String> r = app.results();
            for (String d : List.of("io", "default", "unconfined")) {
                assertThat(r).as(d).containsEntry(d + "_first", "t-kt").containsEntry(d + "_async", "t-kt")
                        .containsEntry(d + "_launch", "t-kt");
                assertThat(ledger.effectsOf("sms_" + d)).as("effects from %s", d).isEqualTo(1);
            }
            assertThat(r).containsEntry("inside_io", "t-inside").containsEntry("inside_default", "t-inside")
                    .containsEntry("inside_after", "none");
            assertThat(ledger.effectsOf("sms_inside")).isEqualTo(1);
            // without the element the task does not follow (this is why it exists)
            assertThat(r).containsEntry("without_element", "none").containsEntry("main_after", "none");
            List<JournalRecord> intents = JournalContents.of(journal()).of(RecordType.INTENT);
            assertThat(intents).filteredOn(i -> "t-kt".equals(i.task())).hasSize(3)
                    .extracting(JournalRecord::intentKey).doesNotContainNull();
            assertThat(intents).filteredOn(i -> "t-kt".equals(i.task())).extracting(JournalRecord::actor).containsOnly("alice");
            assertThat(app.stderr()).doesNotContain("could not rewrite");
        }
    }

    @EveryJdk
    void aTaskOpenedAndClosedAcrossIoThreadsLeavesNoWorkerBound(Jdk jdk) throws Exception {
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp app = ran(jdk, ledger, CoroutineApp.class, "closed");
            Map<String, String> r = app.results();
            assertThat(r).containsEntry("conv_first", "conv-io")
                    .containsEntry("opener_reached", "true") // else the opener was never asked
                    .containsEntry("opener_later", "none")
                    .containsEntry("workers_with_a_task", "0");
            assertThat(Integer.parseInt(r.get("workers_seen"))).isGreaterThan(1);
            // the later call ran as its own implicit task: never deduplicated into the closed conversation
            assertThat(ledger.effectsOf("sms_conv")).isEqualTo(2);
            List<JournalRecord> intents = JournalContents.of(journal()).of(RecordType.INTENT);
            assertThat(intents).filteredOn(i -> "conv-io".equals(i.task())).hasSize(1);
            assertThat(intents).filteredOn(i -> i.task().startsWith("implicit-")).hasSize(1)
                    .allSatisfy(i -> assertThat(i.actor()).isNullOrEmpty());
        }
    }
}

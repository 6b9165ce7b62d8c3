package dev.effectful.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.keys.IntentKeys;
import dev.effectful.core.keys.KeyFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal written before the key escaping, holding a done intent of task {@code "a|b"} under the
 * plain join's key: after the upgrade that task's repeat is still answered from it (body not run),
 * while task {@code "a"} with actor {@code "b|"}, which the plain join gave the same key, runs its own.
 */
class EarlierKeysEngineTest {

    @TempDir
    Path journal;

    public static class Tools {
        final AtomicInteger bodies = new AtomicInteger();

        @EffectfulTool(kind = EffectKind.MONEY, name = "charge")
        public String charge(@IntentKey String orderId) {
            return "charged " + orderId + " #" + bodies.incrementAndGet();
        }
    }

    @Test
    void anUpgradedJournalKeepsItsDoneIntentsAndNoLongerMergesTasks() throws Exception {
        String earlier = IntentKeys.legacy("a|b", null, "charge", "[\"o-1\"]", null);
        try (ChronicleJournal j = ChronicleJournal.openWriter(journal, false, (String) null)) {
            j.append(JournalRecord.of(RecordType.INTENT).task("a|b").call("charge").kind(Kind.MONEY).intentKey(earlier)
                    .attempt(1).attemptId("a|b-1-a1").started(System.currentTimeMillis()).args("{\"orderId\":\"o-1\"}")
                    .build());
            j.append(JournalRecord.of(RecordType.OUTCOME).task("a|b").call("charge").kind(Kind.MONEY).intentKey(earlier)
                    .attempt(1).attemptId("a|b-1-a1").started(System.currentTimeMillis()).outcome(OutcomeWord.OK)
                    .effectApplied(Effect.YES).result("\"charged o-1 #0\"").build());
        }
        assertThat(journal.resolve(KeyFormat.FILE)).doesNotExist();

        Tools tools = new Tools();
        try (CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + journal))) {
            EngineHarness harness = new EngineHarness(engine);
            assertThat(Files.readString(journal.resolve(KeyFormat.FILE))).contains("earlier 1");
            try (Task t = Task.open("a|b", Duration.ofSeconds(30))) {
                Completion c = harness.call(tools, "charge", "o-1");
                assertThat(c.value()).as("the done intent from before the upgrade").isEqualTo("charged o-1 #0");
            }
            try (Task t = Task.open("a", "b|", Duration.ofSeconds(30))) {
                Completion c = harness.call(tools, "charge", "o-1");
                assertThat(c.value()).as("another task's result is not this one's").isEqualTo("charged o-1 #1");
            }
            assertThat(tools.bodies).hasValue(1);
        }
    }
}

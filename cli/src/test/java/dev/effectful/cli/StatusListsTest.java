package dev.effectful.cli;

import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.effectful.cli.TestJournals.K_CRASH;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's status lists followed over a journal that grows: after each append the follower's lists are the
 * ones a fresh full read gives, and it read only the records appended since its last look.
 */
class StatusListsTest {

    @TempDir
    Path dir;

    @Test
    void theFollowerAgreesWithAFullReadAfterEachAppendAndReadsOnlyWhatWasAppended() throws Exception {
        TestJournals.writeScenario(dir);
        try (StatusLists.Tracker follower = new StatusLists.Tracker(dir)) {
            StatusLists.Lists first = follower.read();
            assertThat(keys(first.unresolved())).contains(K_CRASH);
            same(first, StatusLists.read(dir));
            long read = follower.recordsRead();
            assertThat(read).as("the first read reads the whole journal").isPositive();

            assertThat(follower.read().unresolved()).isEqualTo(first.unresolved());
            assertThat(follower.recordsRead()).as("nothing appended, nothing read").isEqualTo(read);

            String held = "0000000000000000000000000000000c";
            try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
                j.append(JournalRecord.of(RecordType.RESOLUTION).task("ord-2").call("create_order").kind(Kind.CREATE)
                        .intentKey(K_CRASH).effectApplied(Effect.YES).note("in the shop").by("ann").build());
                j.append(JournalRecord.of(RecordType.INTENT).task("ord-9").call("refund").kind(Kind.MONEY).intentKey(held)
                        .attempt(1).attemptId("ord-9-a1").started(System.currentTimeMillis()).build());
                j.append(JournalRecord.of(RecordType.OUTCOME).task("ord-9").call("refund").kind(Kind.MONEY).intentKey(held)
                        .attempt(1).attemptId("ord-9-a1").outcome(OutcomeWord.UNKNOWN).effectApplied(Effect.UNKNOWN)
                        .started(System.currentTimeMillis()).build());
            }
            StatusLists.Lists after = follower.read();
            assertThat(follower.recordsRead() - read).as("only the three appended records").isEqualTo(3);
            assertThat(keys(after.unresolved())).contains(held).doesNotContain(K_CRASH);
            same(after, StatusLists.read(dir));

            // far more new intents than the table was sized for at the first read: it grows as it follows
            try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
                for (int i = 0; i < 500; i++) {
                    String key = String.format("%032x", 0x1000 + i);
                    j.append(JournalRecord.of(RecordType.INTENT).task("bulk-" + i).call("refund").kind(Kind.MONEY)
                            .intentKey(key).attempt(1).attemptId("bulk-" + i + "-a1").started(System.currentTimeMillis())
                            .build());
                    j.append(JournalRecord.of(RecordType.OUTCOME).task("bulk-" + i).call("refund").kind(Kind.MONEY)
                            .intentKey(key).attempt(1).attemptId("bulk-" + i + "-a1").outcome(OutcomeWord.UNKNOWN)
                            .effectApplied(Effect.UNKNOWN).started(System.currentTimeMillis()).build());
                }
            }
            StatusLists.Lists grown = follower.read();
            assertThat(grown.unresolved()).hasSize(after.unresolved().size() + 500);
            same(grown, StatusLists.read(dir));
        }
    }

    private static void same(StatusLists.Lists followed, StatusLists.Lists full) {
        assertThat(followed.problem()).isNull();
        assertThat(followed.unresolved()).isEqualTo(full.unresolved());
        assertThat(followed.approvals()).isEqualTo(full.approvals());
    }

    private static List<Object> keys(List<Map<String, Object>> rows) {
        return rows.stream().map(m -> m.get("intent_key")).toList();
    }
}

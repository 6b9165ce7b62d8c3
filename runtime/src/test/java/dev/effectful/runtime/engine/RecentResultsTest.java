package dev.effectful.runtime.engine;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RecentResultsTest {

    private static JournalRecord ok(String key, String result) {
        return JournalRecord.of(RecordType.OUTCOME).intentKey(key).attempt(1).outcome(OutcomeWord.OK).effectApplied(Effect.YES)
                .result(result).build();
    }

    @Test
    void aRememberedRecordIsFoundByItsIndexAndNoOtherIndexAnswersForIt() {
        RecentResults recent = new RecentResults();
        JournalRecord r = ok("k", "\"queued\"");
        recent.remember(77L, r);
        assertThat(recent.find(77L)).isSameAs(r);
        for (long other = 0; other < 10_000; other++) {
            if (other != 77L) {
                assertThat(recent.find(other)).isNull();
            }
        }
    }

    @Test
    void itStaysBoundedAndForgetsOlderRecordsRatherThanAnsweringWrongly() {
        RecentResults recent = new RecentResults();
        for (long i = 0; i < 100_000; i++) {
            recent.remember(i, ok("k" + i, "\"" + i + "\""));
        }
        int remembered = 0;
        for (long i = 0; i < 100_000; i++) {
            JournalRecord r = recent.find(i);
            if (r != null) {
                remembered++;
                assertThat(r.intentKey()).isEqualTo("k" + i);
            }
        }
        assertThat(remembered).isPositive().isLessThanOrEqualTo(1024);
        assertThat(recent.find(99_999L)).as("the newest is always there").isNotNull();
    }

    @Test
    void recordsWithoutAResultOrWithALargeOneAreLeftToTheJournal() {
        RecentResults recent = new RecentResults();
        recent.remember(1L, JournalRecord.of(RecordType.INTENT).intentKey("k").build());
        recent.remember(2L, ok("k", "\"" + "x".repeat(RecentResults.MAX_RESULT_CHARS) + "\""));
        assertThat(recent.find(1L)).isNull();
        assertThat(recent.find(2L)).isNull();
    }
}

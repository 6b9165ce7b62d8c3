package dev.effectful.core.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The reserve check knows each record's size: a burst between two readings of the free space never reaches the reserve. */
class JournalHealthTest {

    private static final long MB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void aBurstOfLargeRecordsIsRefusedBeforeItEatsTheReserveWithNoTimePassing() {
        AtomicLong free = new AtomicLong(10 * MB);
        // the clock never moves: a check cached by time alone would let every record of the burst through
        JournalHealth health = new JournalHealth(dir, 2 * MB, 500, () -> 0L, free::get);
        long record = 1_400_000;
        int written = 0;
        for (int i = 0; i < 10; i++) {
            if (health.problem(record).isPresent()) {
                break;
            }
            free.addAndGet(-record); // the disk as the writes leave it
            written++;
        }
        assertThat(written).isEqualTo((int) ((8 * MB) / (record + JournalHealth.RECORD_SLACK)));
        assertThat(free.get()).isGreaterThanOrEqualTo(2 * MB);
        assertThat(health.problem(record)).get().asString().startsWith("disk full (").contains("a record of 1400000 bytes",
                "effectful.journal.reserve");
        // small records still fit where a large one does not
        assertThat(health.problem(100)).isEmpty();
    }

    @Test
    void outcomesAreCountedThoughNeverRefusedAndSpaceFreedIsSeenAtTheNextReading() {
        AtomicLong free = new AtomicLong(4 * MB);
        JournalHealth health = new JournalHealth(dir, MB, 500, () -> 0L, free::get);
        assertThat(health.problem(MB)).isEmpty();
        health.consumed(2 * MB); // an outcome written meanwhile
        free.addAndGet(-3 * MB);
        assertThat(health.problem(MB)).isPresent();
        free.set(40 * MB); // a person freed space
        assertThat(health.problem(MB)).isEmpty();
    }

    @Test
    void theSizeOfARecordIsItsTextInUtf8PlusItsFixedFields() {
        JournalRecord small = JournalRecord.of(RecordType.INTENT).task("t").intentKey("k").args("[]").build();
        JournalRecord big = JournalRecord.of(RecordType.INTENT).task("t").intentKey("k").args("é".repeat(1000)).build();
        assertThat(JournalHealth.bytesOf(big) - JournalHealth.bytesOf(small)).isEqualTo(2000 - 2);
    }
}

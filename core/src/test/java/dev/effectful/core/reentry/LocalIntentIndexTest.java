package dev.effectful.core.reentry;

import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LocalIntentIndexTest {

    private final LocalIntentIndex index = new LocalIntentIndex();

    private static JournalRecord.Builder rec(RecordType t, long started) {
        return JournalRecord.of(t).intentKey("k").started(started);
    }

    @Test
    void followsIntentOutcomeProbeAndResolution() {
        index.apply(1, rec(RecordType.INTENT, 100).attempt(1).build());
        assertThat(index.get("k")).get().extracting(IntentState::phase).isEqualTo(Phase.INTENDED);
        index.apply(2, rec(RecordType.OUTCOME, 100).attempt(1).outcome(OutcomeWord.RETRYABLE).effectApplied(Effect.NO).retryAfterS(30L)
                .durationMs(5L).build());
        IntentState s = index.get("k").orElseThrow();
        assertThat(s.phase()).isEqualTo(Phase.RETRYABLE);
        assertThat(s.retryAfterUntil()).isEqualTo(100 + 5 + 30_000);
        index.apply(3, rec(RecordType.INTENT, 200).attempt(2).build());
        index.apply(4, rec(RecordType.OUTCOME, 200).attempt(2).outcome(OutcomeWord.OK).effectApplied(Effect.YES).result("\"v\"").build());
        assertThat(index.get("k").orElseThrow()).extracting(IntentState::phase, IntentState::attempts, IntentState::resultIndex)
                .containsExactly(Phase.OK, 2, 4L);
    }

    @Test
    void aRefusalOrDedupAloneIsNoIntentButAgesAKnownOne() {
        // refused before it started (task budget spent): nothing ran, nothing for a person to settle
        index.apply(1, JournalRecord.of(RecordType.REFUSED).intentKey("never-ran").started(100).outcome(OutcomeWord.RETRYABLE)
                .effectApplied(Effect.NO).build());
        // a dedup whose intent and outcome were in a cycle file retention deleted
        index.apply(2, JournalRecord.of(RecordType.DEDUP).intentKey("forgotten").started(100).build());
        assertThat(index.get("never-ran")).isEmpty();
        assertThat(index.get("forgotten")).isEmpty();

        index.apply(3, rec(RecordType.INTENT, 100).attempt(1).build());
        index.apply(4, rec(RecordType.OUTCOME, 100).attempt(1).outcome(OutcomeWord.OK).effectApplied(Effect.YES).result("\"v\"").build());
        index.apply(5, rec(RecordType.DEDUP, 900).build());
        assertThat(index.get("k").orElseThrow()).extracting(IntentState::phase, IntentState::resultIndex, IntentState::lastMillis)
                .containsExactly(Phase.OK, 4L, 900L);
    }

    @Test
    void okWithoutStoredResultRemembersThat() {
        index.apply(1, rec(RecordType.INTENT, 100).attempt(1).build());
        index.apply(2, rec(RecordType.OUTCOME, 100).attempt(1).outcome(OutcomeWord.OK).effectApplied(Effect.YES).build());
        assertThat(index.get("k").orElseThrow().resultIndex()).isEqualTo(-1);
    }

    @Test
    void probeFoundIsOkWithTheProbesValue() {
        index.apply(1, rec(RecordType.INTENT, 100).attempt(1).build());
        index.apply(9, rec(RecordType.PROBE, 300).attempt(1).probe(ProbeResult.FOUND).result("\"charge-1\"").build());
        assertThat(index.get("k").orElseThrow()).extracting(IntentState::phase, IntentState::resultIndex)
                .containsExactly(Phase.OK, 9L);
    }

    @Test
    void resolutionNoMakesItRunnable() {
        index.apply(1, rec(RecordType.INTENT, 100).attempt(1).build());
        index.apply(2, rec(RecordType.RESOLUTION, 300).effectApplied(Effect.NO).build());
        assertThat(index.get("k").orElseThrow().phase()).isEqualTo(Phase.RESOLVED_NOT_APPLIED);
    }

    @Test
    void retentionForgetsOldResolvedKeysButNeverUnresolvedOnes() {
        index.apply(1, JournalRecord.of(RecordType.INTENT).intentKey("old-ok").started(100).attempt(1).build());
        index.apply(2, JournalRecord.of(RecordType.OUTCOME).intentKey("old-ok").started(100).outcome(OutcomeWord.OK).build());
        index.apply(3, JournalRecord.of(RecordType.INTENT).intentKey("old-crash").started(100).attempt(1).build());
        index.apply(4, JournalRecord.of(RecordType.INTENT).intentKey("young").started(10_000).attempt(1).build());
        index.apply(5, JournalRecord.of(RecordType.OUTCOME).intentKey("young").started(10_000).outcome(OutcomeWord.OK).build());
        assertThat(index.forgetOlderThan(5_000)).isEqualTo(1);
        assertThat(index.get("old-ok")).isEmpty();
        assertThat(index.get("old-crash")).isPresent();
        assertThat(index.get("young")).isPresent();
    }

    /**
     * Growth holds the write lock, and a new table's page faults cost seconds at millions of keys: the
     * next table is made and faulted in the background once the current one is half full, and the
     * growth takes it instead of making its own under the lock.
     */
    @Test
    void theNextTableIsPreparedOffTheLockAndTakenByTheGrowth() {
        LocalIntentIndex small = new LocalIntentIndex(null, IntentTable.MIN_SLOTS, 1);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        java.util.List<String> keys = new java.util.ArrayList<>();
        while (keys.size() <= IntentTable.MIN_SLOTS / 2) {
            String k = String.format("%016x%016x", rnd.nextLong(), rnd.nextLong());
            small.apply(keys.size(), JournalRecord.of(RecordType.INTENT).intentKey(k).attempt(1).started(1).build());
            keys.add(k);
        }
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (small.preparedSlots() == 0 && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertThat(small.preparedSlots()).as("prepared once half full").isEqualTo(2 * IntentTable.MIN_SLOTS);
        while (small.tableSlots() == IntentTable.MIN_SLOTS) {
            String k = String.format("%016x%016x", rnd.nextLong(), rnd.nextLong());
            small.apply(keys.size(), JournalRecord.of(RecordType.INTENT).intentKey(k).attempt(1).started(1).build());
            keys.add(k);
        }
        assertThat(small.tableSlots()).isEqualTo(2 * IntentTable.MIN_SLOTS);
        assertThat(small.preparedSlots()).as("taken by the growth").isZero();
        for (String k : keys) {
            assertThat(small.get(k)).as(k).get().extracting(IntentState::phase).isEqualTo(Phase.INTENDED);
        }
    }
}

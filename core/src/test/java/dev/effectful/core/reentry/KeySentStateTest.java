package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a {@code key_sent} record does to its intent's state, in the engine's index: it marks the attempt it
 * names, survives that attempt's outcome, is cleared by the next attempt, and alone is no intent.
 */
class KeySentStateTest {

    private static final String KEY = "0123456789abcdef0f1e2d3c4b5a6978";

    private static JournalRecord.Builder rec(RecordType type, int attempt) {
        return JournalRecord.of(type).task("t").call("charge_card").kind(Kind.MONEY).intentKey(KEY).attempt(attempt)
                .started(1_764_000_000_000L + attempt);
    }

    private static JournalRecord keySent(int attempt) {
        return rec(RecordType.KEY_SENT, attempt).header("Idempotency-Key").build();
    }

    @Test
    void theMarkBelongsToTheAttemptItNames() {
        LocalIntentIndex index = new LocalIntentIndex();
        long i = 0;
        index.apply(i++, rec(RecordType.INTENT, 1).build());
        assertThat(index.get(KEY).orElseThrow().keySent()).as("intended, nothing sent yet").isFalse();
        index.apply(i++, keySent(1));
        IntentState sent = index.get(KEY).orElseThrow();
        assertThat(sent.keySent()).isTrue();
        assertThat(sent.phase()).as("the phase is the intent's: in flight, or a crash").isEqualTo(Phase.INTENDED);
        index.apply(i++, rec(RecordType.OUTCOME, 1).outcome(OutcomeWord.UNKNOWN).effectApplied(Effect.UNKNOWN).build());
        assertThat(index.get(KEY).orElseThrow().keySent()).as("the lost answer keeps it").isTrue();
        assertThat(index.get(KEY).orElseThrow().phase()).isEqualTo(Phase.UNKNOWN);
        index.apply(i++, rec(RecordType.INTENT, 2).build());
        assertThat(index.get(KEY).orElseThrow().keySent()).as("attempt 2's key has not gone out").isFalse();
        index.apply(i++, keySent(1));
        assertThat(index.get(KEY).orElseThrow().keySent()).as("a late mark of attempt 1 says nothing of 2").isFalse();
        index.apply(i++, rec(RecordType.PROBE, 2).probe(ProbeResult.FAILED).build());
        index.apply(i++, keySent(2));
        assertThat(index.get(KEY).orElseThrow().keySent()).isTrue();
        assertThat(index.get(KEY).orElseThrow().attempts()).isEqualTo(2);
    }

    @Test
    void aKeySentAloneIsNoIntent() {
        LocalIntentIndex index = new LocalIntentIndex();
        index.apply(0, keySent(1));
        assertThat(index.get(KEY)).as("its intent was forgotten by retention").isEmpty();
        assertThat(StateTransitions.startsNoIntent(keySent(1))).isTrue();
        assertThat(StateTransitions.agesOnly(keySent(1))).as("retention keeps the file that holds it").isFalse();
        assertThat(RecordType.KEY_SENT.sharedWithFleet()).isFalse();
    }

    @Test
    void theMarkComesBackFromTheTableAsItWasStored() throws Exception {
        IntentTable table = IntentTable.create(null, 256);
        IntentState s = new IntentState(Phase.UNKNOWN, 7, Effect.UNKNOWN, 0, -1, 5L, null, true);
        table.insert(1L, 2L, s);
        assertThat(table.state(table.find(1L, 2L))).isEqualTo(s);
        table.update(table.find(1L, 2L), s.withKeySent(false));
        assertThat(table.state(table.find(1L, 2L)).keySent()).isFalse();
        assertThat(table.unresolved(table.find(1L, 2L))).isTrue();
    }
}

package dev.effectful.runtime.journal;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Status;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The closed words are enums in the process and the very same words on disk as before the enums. */
class JournalWordsTest {

    @Test
    void everyConstantIsWrittenAsItsOldWordAndReadsBack() {
        for (Kind k : Kind.values()) {
            for (OutcomeWord o : OutcomeWord.values()) {
                Effect e = Effect.values()[o.ordinal() % Effect.values().length];
                ProbeResult p = ProbeResult.values()[k.ordinal() % ProbeResult.values().length];
                JournalRecord r = JournalRecord.of(RecordType.PROBE).task("t").call("c").kind(k).intentKey("ab".repeat(32))
                        .outcome(o).effectApplied(e).probe(p).build();
                Wire w = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap());
                RecordCodec.write(r, w);
                String raw = w.bytes().toString();
                assertThat(raw).contains(k.word()).contains(o.word()).contains(e.word()).contains(p.word());
                assertThat(RecordCodec.read(w)).isEqualTo(r);
            }
        }
        assertThat(List.of(Kind.READ.word(), OutcomeWord.RETRYABLE.word(), Effect.PARTIAL.word(), ProbeResult.ABSENT.word()))
                .containsExactly("read", "retryable", "partial", "absent");
    }

    @Test
    void theJournalEnumsMirrorTheApiOnesOneForOne() {
        for (EffectKind k : EffectKind.values()) {
            assertThat(ApiWords.kind(k).word()).isEqualTo(k.name().toLowerCase(java.util.Locale.ROOT));
        }
        for (Status s : Status.values()) {
            assertThat(ApiWords.outcome(s).word()).isEqualTo(s.word());
            assertThat(ApiWords.status(ApiWords.outcome(s))).isEqualTo(s);
        }
        for (EffectApplied e : EffectApplied.values()) {
            assertThat(ApiWords.effect(e).word()).isEqualTo(e.word());
            assertThat(ApiWords.applied(ApiWords.effect(e))).isEqualTo(e);
        }
        assertThat(Kind.values()).hasSameSizeAs(EffectKind.values());
    }

    @Test
    void aWordThisReaderDoesNotKnowReadsAsNull() {
        assertThat(OutcomeWord.fromWord("maybe")).isNull();
        assertThat(Kind.fromWord(null)).isNull();
        assertThat(AttemptIds.of("task-1", "9f".repeat(32), 3)).isEqualTo("task-1-9f9f9f9f-a3");
    }
}

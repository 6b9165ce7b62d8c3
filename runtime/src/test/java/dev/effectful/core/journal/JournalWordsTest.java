package dev.effectful.core.journal;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Status;
import dev.effectful.runtime.engine.ApiWords;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The closed words are enums in the process, one-byte codes on disk, and the words journals carried
 * before the codes still read as the same constants.
 */
class JournalWordsTest {

    @Test
    void everyConstantIsWrittenAsACodeAndReadsBackInEveryMode() {
        for (RecordType type : RecordType.values()) {
            assertThat(Codes.of(type)).as(type.name()).isBetween(1, 127);
            for (Kind k : Kind.values()) {
                for (OutcomeWord o : OutcomeWord.values()) {
                    Effect e = Effect.values()[o.ordinal() % Effect.values().length];
                    ProbeResult p = ProbeResult.values()[k.ordinal() % ProbeResult.values().length];
                    JournalRecord r = JournalRecord.of(type).task("t").call("c").kind(k).intentKey("ab".repeat(32))
                            .outcome(o).effectApplied(e).probe(p)
                            // a dedup record does not carry who wrote it (RecordCodec.omitsWriter)
                            .pid(type.omitsWriter() ? 0 : 4242).thread(type.omitsWriter() ? null : "main")
                            .build();
                    Wire w = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap());
                    RecordCodec.write(r, w);
                    String raw = w.bytes().toString();
                    assertThat(raw).doesNotContain(k.word()).doesNotContain(o.word()).doesNotContain(e.word())
                            .doesNotContain(p.word()).doesNotContain(type.word());
                    byte[] bytes = w.bytes().toByteArray();
                    assertThat(RecordCodec.read(w)).isEqualTo(r);
                    JournalRecord lean = RecordCodec.readForIndex(WireType.BINARY_LIGHT.apply(Bytes.wrapForRead(bytes)));
                    assertThat(lean.type()).isEqualTo(type);
                    assertThat(List.of(lean.outcome(), lean.effectApplied(), lean.probe())).containsExactly(o, e, p);
                    assertThat(lean.kind()).as("the index skips the kind").isNull();
                }
            }
        }
    }

    @Test
    void theOldWordsStillReadAsTheSameConstants() {
        for (RecordType type : RecordType.values()) {
            for (Kind k : Kind.values()) {
                OutcomeWord o = OutcomeWord.values()[k.ordinal() % OutcomeWord.values().length];
                Effect e = Effect.values()[k.ordinal() % Effect.values().length];
                ProbeResult p = ProbeResult.values()[k.ordinal() % ProbeResult.values().length];
                Wire w = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap());
                // as journals were written before the codes: every closed word as its text
                w.writeEventId(RecordCodec.Field.TYPE.id).text(type.word());
                w.writeEventId(RecordCodec.Field.TASK.id).text("t");
                w.writeEventId(RecordCodec.Field.KIND.id).text(k.word());
                w.writeEventId(RecordCodec.Field.INTENT_KEY.id).text("ab".repeat(16));
                w.writeEventId(RecordCodec.Field.STARTED.id).int64(7);
                w.writeEventId(RecordCodec.Field.OUTCOME.id).text(o.word());
                w.writeEventId(RecordCodec.Field.EFFECT_APPLIED.id).text(e.word());
                w.writeEventId(RecordCodec.Field.PROBE.id).text(p.word());
                JournalRecord r = RecordCodec.read(w);
                assertThat(r.type()).isEqualTo(type);
                assertThat(r.kind()).isEqualTo(k);
                assertThat(List.of(r.outcome(), r.effectApplied(), r.probe())).containsExactly(o, e, p);
                assertThat(r.intentKey()).isEqualTo("ab".repeat(16));
            }
        }
    }

    @Test
    void aCodeThisReaderDoesNotKnowReadsAsNullAndATypeItDoesNotKnowIsNotARecord() {
        Wire w = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap());
        w.writeEventId(RecordCodec.Field.TYPE.id);
        w.bytes().writeUnsignedByte(1);
        w.writeEventId(RecordCodec.Field.KIND.id);
        w.bytes().writeUnsignedByte(99);
        assertThat(RecordCodec.read(w).kind()).isNull();
        Wire unknown = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap());
        unknown.writeEventId(RecordCodec.Field.TYPE.id);
        unknown.bytes().writeUnsignedByte(99);
        assertThat(RecordCodec.read(unknown)).isNull();
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

    /**
     * Every kind's rules, spelled out: a kind added to {@link Kind} fails here until its rules are written
     * down (the constructor already asks for them; this pins what they are).
     */
    @Test
    void everyKindHasItsRules() {
        // kind -> {repeat is harmless, always runs, destroys}
        Map<Kind, List<Boolean>> rules = new EnumMap<>(Kind.class);
        rules.put(Kind.READ, List.of(true, true, false));
        rules.put(Kind.IDEMPOTENT, List.of(true, false, false));
        rules.put(Kind.CREATE, List.of(false, false, false));
        rules.put(Kind.SEND, List.of(false, false, false));
        rules.put(Kind.MONEY, List.of(false, false, true));
        rules.put(Kind.DESTRUCTIVE, List.of(false, false, true));
        for (Kind k : Kind.values()) {
            assertThat(rules).as("%s has no rules written down here", k).containsKey(k);
            assertThat(List.of(k.repeatIsHarmless(), k.alwaysRuns(), k.destroys())).as("%s", k).isEqualTo(rules.get(k));
            assertThat(Kind.alwaysRuns(k.name())).as("%s by its constant's name", k).isEqualTo(k.alwaysRuns());
            assertThat(!k.alwaysRuns() || k.repeatIsHarmless()).as("%s: what always runs repeats harmlessly", k).isTrue();
        }
        assertThat(Kind.alwaysRuns(null)).isFalse();
        assertThat(Kind.alwaysRuns("read")).as("a constant's name, not the word on disk").isFalse();
        for (EffectKind k : EffectKind.values()) {
            assertThat(Kind.alwaysRuns(k.name())).as("%s", k).isEqualTo(k == EffectKind.READ);
        }
    }

    /** The tool listing's hints of every kind, the table docs/FRAMEWORKS.md gives (MCP tool annotations). */
    @Test
    void everyKindHasItsToolHints() {
        // kind -> {readOnlyHint, destructiveHint, idempotentHint}; null: no claim
        Map<Kind, Kind.ToolHints> hints = new EnumMap<>(Kind.class);
        hints.put(Kind.READ, new Kind.ToolHints(true, null, null));
        hints.put(Kind.IDEMPOTENT, new Kind.ToolHints(false, false, true));
        hints.put(Kind.CREATE, new Kind.ToolHints(false, false, false));
        hints.put(Kind.SEND, new Kind.ToolHints(false, false, false));
        hints.put(Kind.MONEY, new Kind.ToolHints(false, true, false));
        hints.put(Kind.DESTRUCTIVE, new Kind.ToolHints(false, true, false));
        for (Kind k : Kind.values()) {
            assertThat(k.toolHints()).as("%s", k).isEqualTo(hints.get(k));
        }
    }

    @Test
    void theReentryWordIsWrittenAndReadInOnePlace() {
        Map<String, ReentryDeclaration> words = Map.of("probe keyable", new ReentryDeclaration(true, true),
                "probe", new ReentryDeclaration(true, false), "keyable", new ReentryDeclaration(false, true),
                "-", new ReentryDeclaration(false, false));
        words.forEach((word, declared) -> {
            assertThat(declared.word()).isEqualTo(word);
            assertThat(ReentryDeclaration.parse(word)).isEqualTo(declared);
        });
        assertThat(ReentryDeclaration.parse(null)).as("not written: an older journal").isNull();
    }

    @Test
    void aWordThisReaderDoesNotKnowReadsAsNull() {
        assertThat(OutcomeWord.fromWord("maybe")).isNull();
        assertThat(Kind.fromWord(null)).isNull();
        assertThat(AttemptIds.of("task-1", "9f".repeat(32), 3)).isEqualTo("task-1-9f9f9f9f-a3");
    }
}

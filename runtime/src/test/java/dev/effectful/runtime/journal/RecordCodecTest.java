package dev.effectful.runtime.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RecordCodecTest {

    private static final JournalRecord OUTCOME = JournalRecord.of(RecordType.OUTCOME).task("task-1").actor("alice")
            .call("send_email").kind(Kind.SEND).intentKey("9f".repeat(32)).attempt(2).attemptId("task-1-9f9f9f9f-a2")
            .started(1_764_000_000_000L).outcome(OutcomeWord.OK).effectApplied(Effect.YES).deadlineLeftS(42L).result("\"queued\"")
            .pid(4242).thread("main").durationMs(3L).build();

    private static Wire wire() {
        return WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap());
    }

    @Test
    void aRecordReadsBackFieldForFieldInEveryMode() {
        Wire w = wire();
        RecordCodec.write(OUTCOME, w);
        assertThat(RecordCodec.read(w)).isEqualTo(OUTCOME);

        Wire lean = wire();
        RecordCodec.write(OUTCOME, lean);
        JournalRecord indexed = RecordCodec.readForIndex(lean);
        assertThat(indexed.intentKey()).isEqualTo(OUTCOME.intentKey());
        assertThat(indexed.outcome()).isEqualTo(OutcomeWord.OK);
        assertThat(indexed.result()).as("the index only needs to know a result is stored").isEmpty();
        assertThat(indexed.task()).isNull();
    }

    @Test
    void fieldsAreNumbersOnDiskSoARecordCarriesNoFieldNames() {
        Wire w = wire();
        RecordCodec.write(OUTCOME, w);
        String raw = w.bytes().toString();
        assertThat(raw).doesNotContain("intent_key").doesNotContain("effect_applied").doesNotContain("attempt_id");
        Wire named = wire();
        writeWithNames(OUTCOME, named);
        assertThat(w.bytes().readRemaining()).as("numbered fields against named ones")
                .isLessThan(named.bytes().readRemaining() - 100);
    }

    @Test
    void aJournalWrittenWithFieldNamesIsStillRead() {
        Wire w = wire();
        writeWithNames(OUTCOME, w);
        assertThat(RecordCodec.read(w)).isEqualTo(OUTCOME);
    }

    @Test
    void aDocumentNotStartingWithATypeIsNotOurs() {
        Wire w = wire();
        w.writeEventId(RecordCodec.Field.TASK.id).text("t");
        w.writeEventId(RecordCodec.Field.TYPE.id).text("intent");
        assertThat(RecordCodec.read(w)).isNull();
        Wire unknownType = wire();
        unknownType.writeEventId(RecordCodec.Field.TYPE.id).text("java.lang.Runtime");
        assertThat(RecordCodec.read(unknownType)).isNull();
    }

    /** The format before numbered fields, as the previous release wrote it. */
    private static void writeWithNames(JournalRecord r, Wire w) {
        w.write("type").text(r.type().word());
        w.write("task").text(r.task());
        w.write("actor").text(r.actor());
        w.write("call").text(r.call());
        w.write("kind").text(r.kind().word());
        w.write("intent_key").text(r.intentKey());
        w.write("attempt").int32(r.attempt());
        w.write("attempt_id").text(r.attemptId());
        w.write("started").int64(r.started());
        w.write("outcome").text(r.outcome().word());
        w.write("effect_applied").text(r.effectApplied().word());
        w.write("deadline_left_s").int64(r.deadlineLeftS());
        w.write("result").text(r.result());
        w.write("pid").int64(r.pid());
        w.write("thread").text(r.thread());
        w.write("duration_ms").int64(r.durationMs());
        w.write("some_future_field").text("skipped");
    }
}

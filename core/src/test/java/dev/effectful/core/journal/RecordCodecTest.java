package dev.effectful.core.journal;

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

    /** As the engine writes them: a 32-hex-digit key and the attempt id {@link AttemptIds#of} makes. */
    private static final String KEY = "0123456789abcdef0f1e2d3c4b5a6978";
    private static final JournalRecord ENGINE_INTENT = JournalRecord.of(RecordType.INTENT).task("task-17").actor("alice")
            .call("send_email").kind(Kind.SEND).intentKey(KEY).attempt(3).attemptId(AttemptIds.of("task-17", KEY, 3))
            .started(1_764_000_000_000L).budgetLeftS(120L).args("{\"to\":\"a@example.com\"}").pid(4242).thread("main")
            .reentry("probe").build();
    private static final JournalRecord ENGINE_OUTCOME = JournalRecord.of(RecordType.OUTCOME).task("task-17").actor("alice")
            .call("send_email").kind(Kind.SEND).intentKey(KEY).attempt(3).attemptId(AttemptIds.of("task-17", KEY, 3))
            .started(1_764_000_000_000L).outcome(OutcomeWord.OK).effectApplied(Effect.YES).deadlineLeftS(119L)
            .result("\"queued\"").durationMs(4L).pid(4242).thread("main").build();
    private static final JournalRecord ENGINE_DEDUP = JournalRecord.of(RecordType.DEDUP).task("task-17").actor("alice")
            .call("send_email").kind(Kind.SEND).intentKey(KEY).attempt(3).attemptId(AttemptIds.of("task-17", KEY, 3))
            .started(1_764_000_000_500L).pid(0).thread(null).build();

    @Test
    void theEngineShapesAreStoredAsBitsAndMarksAndReadBackAsTheSameText() {
        for (JournalRecord r : java.util.List.of(ENGINE_INTENT, ENGINE_OUTCOME, ENGINE_DEDUP)) {
            byte[] bytes = bytes(r);
            String raw = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(raw).as("the key is its 128 bits, not its hex").doesNotContain(KEY.substring(0, 8));
            assertThat(raw).as("the attempt id is a mark: the reader rebuilds it").doesNotContain("-a3");
            for (RecordCodec.Mode mode : RecordCodec.Mode.values()) {
                DecodedRecord d = RecordCodec.decode(read(bytes), mode);
                assertThat(d.integrity()).as(mode.name()).isEqualTo(DecodedRecord.Integrity.CHECKED);
                assertThat(d.record().intentKey()).isEqualTo(KEY);
                assertThat(d.record().type()).isEqualTo(r.type());
            }
            assertThat(RecordCodec.read(read(bytes))).isEqualTo(r);
            assertThat(RecordCodec.readSummary(read(bytes)).attemptId()).isEqualTo("task-17-01234567-a3");
        }
    }

    private static final JournalRecord ENGINE_KEY_SENT = JournalRecord.of(RecordType.KEY_SENT).task("task-17").actor("alice")
            .call("charge_card").kind(Kind.MONEY).intentKey(KEY).attempt(3).attemptId(AttemptIds.of("task-17", KEY, 3))
            .started(1_764_000_000_100L).pid(0).thread(null).header("Idempotency-Key").build();

    @Test
    void aKeySentRecordReadsBackWithItsHeaderAndFitsTheHead() {
        byte[] bytes = bytes(ENGINE_KEY_SENT);
        assertThat(RecordCodec.head(ENGINE_KEY_SENT, true)).as("type, kind and attempt in one number").isNotNegative();
        assertThat(RecordCodec.read(read(bytes))).isEqualTo(ENGINE_KEY_SENT);
        JournalRecord indexed = RecordCodec.decode(read(bytes), RecordCodec.Mode.INDEX).record();
        assertThat(indexed.type()).isEqualTo(RecordType.KEY_SENT);
        assertThat(indexed.attempt()).isEqualTo(3);
        assertThat(indexed.intentKey()).isEqualTo(KEY);
        assertThat(RecordCodec.readSummary(read(bytes)).header()).isEqualTo("Idempotency-Key");
        assertThat(RecordType.ofWord("key_sent")).contains(RecordType.KEY_SENT);
        assertThat(RecordType.KEY_SENT.word()).isEqualTo("key_sent");
        assertThat(bytes.length).as("small: written once per attempt of a key-header tool only").isLessThanOrEqualTo(100);
    }

    @Test
    void theEngineShapesTakeLessDiskThanThePreviousFormat() {
        // disk per attempt: key 34 -> 17 bytes, attempt id -> a 1-byte mark, words -> 1-byte codes
        for (JournalRecord r : java.util.List.of(ENGINE_INTENT, ENGINE_OUTCOME, ENGINE_DEDUP)) {
            Wire previous = wire();
            writePreviousFormat(r, previous);
            long before = previous.bytes().readRemaining();
            // 17 (key) + 19 (attempt id) + 6 (type) + 4 (kind), more for an outcome's words, a dedup's writer
            assertThat((long) bytes(r).length).as(r.type().word()).isLessThanOrEqualTo(before - 46);
        }
        assertThat(bytes(ENGINE_DEDUP).length).as("a dedup record").isLessThanOrEqualTo(88);
    }

    @Test
    void keysAndAttemptIdsOfOtherShapesStayText() {
        for (String key : new String[] {"0123456789ABCDEF0123456789ABCDEF", "9f".repeat(32), "0123456789abcdef", "short"}) {
            JournalRecord r = JournalRecord.of(RecordType.OUTCOME).task("t").intentKey(key).attempt(1)
                    .attemptId("t-" + key + "-a1").outcome(OutcomeWord.OK).started(5).build();
            assertThat(RecordCodec.read(read(bytes(r)))).as(key).isEqualTo(r);
        }
        for (String attemptId : new String[] {"task-17-01234567-a03", "task-17-01234567-a4", "task-17-01234568-a3",
                "task-1-01234567-a3", "task-17-01234567-a3 ", "task-17+01234567-a3", "", "x"}) {
            JournalRecord r = ENGINE_OUTCOME;
            JournalRecord other = JournalRecord.of(RecordType.OUTCOME).task(r.task()).intentKey(KEY).attempt(3)
                    .attemptId(attemptId).started(5).pid(1).thread("t").build();
            assertThat(RecordCodec.read(read(bytes(other)))).as(attemptId).isEqualTo(other);
        }
        for (int attempt : new int[] {0, 1, 9, 10, 99, 100, 12_345, Integer.MAX_VALUE}) {
            JournalRecord r = JournalRecord.of(RecordType.INTENT).task("t").intentKey(KEY).attempt(attempt)
                    .attemptId(AttemptIds.of("t", KEY, attempt)).started(5).build();
            byte[] bytes = bytes(r);
            assertThat(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("-a");
            assertThat(RecordCodec.read(read(bytes))).as("attempt " + attempt).isEqualTo(r);
        }
        JournalRecord noTask = JournalRecord.of(RecordType.RESOLUTION).intentKey(KEY).attempt(3)
                .attemptId("task-17-01234567-a3").started(5).build();
        assertThat(RecordCodec.read(read(bytes(noTask)))).isEqualTo(noTask);
    }

    @Test
    void aRecordOfThePreviousFormatIsReadAsBefore() {
        // numbered fields, but the key, the attempt id and every closed word as text, pid and thread on a dedup
        for (JournalRecord r : java.util.List.of(ENGINE_INTENT, ENGINE_OUTCOME, ENGINE_DEDUP)) {
            JournalRecord before = r.type() == RecordType.DEDUP
                    ? JournalRecord.of(RecordType.DEDUP).task(r.task()).actor(r.actor()).call(r.call()).kind(r.kind())
                    .intentKey(r.intentKey()).attempt(r.attempt()).attemptId(r.attemptId()).started(r.started())
                    .pid(4242).thread("main").build()
                    : r;
            Wire w = wire();
            writePreviousFormat(before, w);
            DecodedRecord d = RecordCodec.decode(w, RecordCodec.Mode.FULL);
            assertThat(d.integrity()).isEqualTo(DecodedRecord.Integrity.CHECKED);
            assertThat(d.record()).isEqualTo(before);
        }
    }

    @Test
    void aRecordOfTheFirstIssue21FormatIsReadAsBeforeInEveryMode() {
        // the format before the head: a field per closed word (its code), the attempt as its own field and
        // the attempt id as the wire's true; every mode reads it as it reads the same record written today
        for (JournalRecord r : java.util.List.of(ENGINE_INTENT, ENGINE_OUTCOME, ENGINE_DEDUP, OUTCOME)) {
            Wire w = wire();
            writeFirstIssue21Format(r, w);
            byte[] before = w.bytes().toByteArray();
            for (RecordCodec.Mode mode : RecordCodec.Mode.values()) {
                DecodedRecord old = RecordCodec.decode(read(before), mode);
                DecodedRecord now = RecordCodec.decode(read(bytes(r)), mode);
                assertThat(old.integrity()).as(mode.name()).isEqualTo(DecodedRecord.Integrity.CHECKED);
                assertThat(old.record()).as(r.type() + " " + mode).isEqualTo(now.record());
            }
            assertThat(RecordCodec.read(read(before))).isEqualTo(r);
        }
    }

    @Test
    void everyModeReadsTheHeadAsItReadsSeparateFields() {
        // every combination the head packs, and the records that cannot be packed (written field by field)
        java.util.List<JournalRecord> records = new java.util.ArrayList<>();
        for (RecordType type : RecordType.values()) {
            for (Kind kind : new Kind[] {null, Kind.READ, Kind.SEND, Kind.DESTRUCTIVE}) {
                for (OutcomeWord outcome : new OutcomeWord[] {null, OutcomeWord.OK, OutcomeWord.UNKNOWN}) {
                    for (Effect effect : new Effect[] {null, Effect.YES, Effect.UNKNOWN}) {
                        for (int attempt : new int[] {0, 1, 127, (1 << 18) - 1, 1 << 18, Integer.MAX_VALUE, -1}) {
                            for (boolean derived : new boolean[] {true, false}) {
                                records.add(JournalRecord.of(type).task("task-9").call("c").kind(kind).intentKey(KEY)
                                        .attempt(attempt).attemptId(derived ? AttemptIds.of("task-9", KEY, attempt) : "custom")
                                        .outcome(outcome).effectApplied(effect).started(0).budgetLeftS(127L)
                                        .deadlineLeftS(128L).durationMs(0L).pid(0).thread("t").build());
                            }
                        }
                    }
                }
            }
        }
        for (JournalRecord r : records) {
            Wire w = wire();
            writeFirstIssue21Format(r, w);
            byte[] before = w.bytes().toByteArray();
            byte[] now = bytes(r);
            assertThat(now.length).as(r.toString()).isLessThanOrEqualTo(before.length);
            for (RecordCodec.Mode mode : RecordCodec.Mode.values()) {
                assertThat(RecordCodec.decode(read(now), mode).record()).as(mode + " " + r)
                        .isEqualTo(RecordCodec.decode(read(before), mode).record());
            }
            if (!RecordCodec.omitsWriter(r)) { // a dedup or key_sent keeps no pid or thread
                assertThat(RecordCodec.read(read(now))).isEqualTo(r);
            }
        }
    }

    private static byte[] bytes(JournalRecord r) {
        Wire w = wire();
        RecordCodec.write(r, w);
        return w.bytes().toByteArray();
    }

    private static Wire read(byte[] bytes) {
        return WireType.BINARY_LIGHT.apply(Bytes.wrapForRead(bytes));
    }

    /**
     * The previous release's numbered format, field for field as its writer wrote it: every text as
     * text, pid and thread on every record, then the identity and crc checksums.
     */
    static void writePreviousFormat(JournalRecord r, Wire w) {
        Bytes<?> bytes = w.bytes();
        long start = bytes.writePosition();
        w.writeEventId(1).text(r.type().word());
        previousText(w, 2, r.task());
        previousText(w, 3, r.actor());
        previousText(w, 4, r.call());
        previousText(w, 5, r.kind() == null ? null : r.kind().word());
        previousText(w, 6, r.intentKey());
        if (r.attempt() != 0) {
            w.writeEventId(7).int32(r.attempt());
        }
        previousText(w, 8, r.attemptId());
        w.writeEventId(9).int64(r.started());
        previousNumber(w, 10, r.budgetLeftS());
        previousText(w, 11, r.args());
        previousText(w, 12, r.outcome() == null ? null : r.outcome().word());
        previousText(w, 13, r.effectApplied() == null ? null : r.effectApplied().word());
        previousNumber(w, 14, r.retryAfterS());
        previousNumber(w, 15, r.deadlineLeftS());
        previousText(w, 16, r.message());
        previousText(w, 17, r.result());
        previousText(w, 18, r.probe() == null ? null : r.probe().word());
        w.writeEventId(19).int64(r.pid());
        previousText(w, 20, r.thread());
        previousTail(r, w, bytes, start);
    }

    /** What both earlier formats end with: duration, item, re-entry, then the identity checksum and the crc. */
    private static void previousTail(JournalRecord r, Wire w, Bytes<?> bytes, long start) {
        previousNumber(w, 21, r.durationMs());
        previousText(w, 22, r.item());
        previousText(w, 25, r.reentry());
        RecordCodec.Scratch s = new RecordCodec.Scratch();
        w.writeEventId(23).fixedInt32(s.identity(r));
        int crc = s.crc(bytes, start, bytes.writePosition());
        w.writeEventId(24).fixedInt32(crc);
    }

    private static void previousText(Wire w, int id, String v) {
        if (v != null) {
            w.writeEventId(id).text(v);
        }
    }

    private static void previousNumber(Wire w, int id, Long v) {
        if (v != null) {
            w.writeEventId(id).int64(v);
        }
    }

    /**
     * The first compact format, field for field as its writer wrote it: numbered fields, the type and
     * every closed word its one-byte code in a field of its own, a 32-hex-digit key as the wire's UUID,
     * the attempt as its own field and a derived attempt id as the wire's {@code true}, no pid or thread
     * on a dedup, every number as the wire writes it; then the identity and crc checksums.
     */
    static void writeFirstIssue21Format(JournalRecord r, Wire w) {
        Bytes<?> bytes = w.bytes();
        long start = bytes.writePosition();
        firstCode(w, 1, r.type());
        previousText(w, 2, r.task());
        previousText(w, 3, r.actor());
        previousText(w, 4, r.call());
        firstCode(w, 5, r.kind());
        long[] bits = new long[2];
        if (dev.effectful.core.journal.HexKeys.parse(r.intentKey(), bits)) {
            w.writeEventId(6).uuid(new java.util.UUID(bits[0], bits[1]));
        } else {
            previousText(w, 6, r.intentKey());
        }
        if (r.attempt() != 0) {
            w.writeEventId(7).int32(r.attempt());
        }
        if (AttemptIds.isOf(r.attemptId(), r.task(), r.intentKey(), r.attempt())) {
            w.writeEventId(8).bool(true);
        } else {
            previousText(w, 8, r.attemptId());
        }
        w.writeEventId(9).int64(r.started());
        previousNumber(w, 10, r.budgetLeftS());
        previousText(w, 11, r.args());
        firstCode(w, 12, r.outcome());
        firstCode(w, 13, r.effectApplied());
        previousNumber(w, 14, r.retryAfterS());
        previousNumber(w, 15, r.deadlineLeftS());
        previousText(w, 16, r.message());
        previousText(w, 17, r.result());
        firstCode(w, 18, r.probe());
        if (!RecordCodec.omitsWriter(r)) { // dedup then; key_sent, newer than this format, as it is written now
            w.writeEventId(19).int64(r.pid());
            previousText(w, 20, r.thread());
        }
        previousTail(r, w, bytes, start);
    }

    private static void firstCode(Wire w, int id, Enum<?> v) {
        if (v != null) {
            w.writeEventId(id);
            w.bytes().writeUnsignedByte(Codes.of(v));
        }
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

package dev.effectful.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.WireType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The encoder that appends use writes exactly the bytes Chronicle's wire writes for a record: the
 * journal format is unchanged, so every reader (older agents and CLIs included) reads them as before.
 */
class RecordEncoderTest {

    private static byte[] withWire(JournalRecord r) {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap();
        WireReference.write(r, WireType.BINARY_LIGHT.apply(b));
        return b.toByteArray();
    }

    private static byte[] encoded(JournalRecord r) {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap();
        RecordCodec.write(r, WireType.BINARY_LIGHT.apply(b));
        return b.toByteArray();
    }

    private static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }

    @Test
    void everyTextLengthAroundTheWireThresholdsIsByteForByteTheWiresEncoding() {
        // 32: short texts end; 128 and 16384: the stop-bit length grows a byte
        for (int len : new int[] {0, 1, 2, 30, 31, 32, 33, 127, 128, 129, 16383, 16384, 16385, 70_000}) {
            for (String text : List.of(repeat('a', len), repeat('é', len), len == 0 ? "" : repeat('a', len - 1) + "€",
                    len == 0 ? "" : "\uD83D\uDE00" + repeat('b', len - 1), len == 0 ? "" : "\uD800" + repeat('c', len - 1),
                    len == 0 ? "" : repeat('d', len - 1) + "\u007f")) {
                JournalRecord r = JournalRecord.of(RecordType.OUTCOME).task(text).intentKey("k").result(text)
                        .message(text).started(1).pid(1).build();
                assertThat(encoded(r)).as("length " + len + " text starting " + (int) (text.isEmpty() ? 0 : text.charAt(0)))
                        .isEqualTo(withWire(r));
            }
        }
    }

    @Test
    void everyFieldAndNumberRangeIsByteForByteTheWiresEncoding() {
        Random random = new Random(21);
        List<JournalRecord> records = new ArrayList<>();
        records.add(JournalRecord.of(RecordType.INTENT).build());
        long[] numbers = {0, 1, -1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, Integer.MAX_VALUE,
                Integer.MIN_VALUE, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, 1_764_000_000_000L};
        for (long v : numbers) {
            records.add(JournalRecord.of(RecordType.OUTCOME).task("t").actor("alice").call("send_email").kind(Kind.SEND)
                    .intentKey("0123456789abcdef0123456789abcdef").attempt((int) v).attemptId("t-01234567-a1").started(v)
                    .budgetLeftS(v).args("{\"to\":\"x@example.com\"}").outcome(OutcomeWord.OK).effectApplied(Effect.YES)
                    .retryAfterS(v).deadlineLeftS(v).message("m").result("\"queued\"").probe(ProbeResult.FOUND).pid(v)
                    .thread("main").durationMs(v).item("i-1").reentry("probe keyable").header("Idempotency-Key").build());
        }
        for (int i = 0; i < 2000; i++) {
            records.add(JournalRecord.of(RecordType.values()[random.nextInt(RecordType.values().length)])
                    .task(randomText(random)).actor(randomText(random)).call(randomText(random))
                    .kind(random.nextBoolean() ? null : Kind.values()[random.nextInt(Kind.values().length)])
                    .intentKey(randomText(random)).attempt(random.nextInt()).attemptId(randomText(random))
                    .started(random.nextLong()).budgetLeftS(random.nextBoolean() ? null : random.nextLong())
                    .args(randomText(random)).message(randomText(random)).result(randomText(random))
                    .pid(random.nextInt(1 << 22)).thread(randomText(random))
                    .durationMs(random.nextBoolean() ? null : (long) random.nextInt(100_000))
                    .header(random.nextBoolean() ? null : randomText(random)).build());
        }
        for (JournalRecord r : records) {
            assertThat(encoded(r)).as(r.toString()).isEqualTo(withWire(r));
        }
    }

    @Test
    void everyNumberWidthIsByteForByteTheWiresEncoding() {
        List<Long> numbers = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            for (long d = -2; d <= 2; d++) {
                numbers.add((1L << bit) + d);
                numbers.add(-(1L << bit) + d);
                numbers.add((1L << bit) - 1 + d);
            }
        }
        Random random = new Random(21);
        for (int i = 0; i < 20_000; i++) {
            numbers.add(random.nextLong());
            numbers.add((long) random.nextInt());
            numbers.add(1_700_000_000_000L + random.nextInt(Integer.MAX_VALUE)); // epoch millis
            numbers.add((long) random.nextInt(1 << 24) << random.nextInt(40)); // many a float32 holds exactly
            numbers.add(-((long) random.nextInt(1 << 24) << random.nextInt(40)));
        }
        for (long v : numbers) {
            JournalRecord r = JournalRecord.of(RecordType.OUTCOME).attempt((int) v).started(v).budgetLeftS(v)
                    .retryAfterS(v).deadlineLeftS(v).pid(v).durationMs(v).build();
            assertThat(encoded(r)).as("%d", v).isEqualTo(withWire(r));
        }
    }

    @Test
    void whatTheEncoderWritesReadsBackCheckedAndEqual() {
        JournalRecord r = JournalRecord.of(RecordType.INTENT).task("order-17").actor("alice").call("charge_card")
                .kind(Kind.MONEY).intentKey("0123456789abcdef0123456789abcdef").attempt(1).attemptId("order-17-a1")
                .started(1_764_000_000_000L).budgetLeftS(30L).args("{\"note\":\"naïve ☃\"}").pid(4242).thread("main")
                .build();
        DecodedRecord d = RecordCodec.decode(WireType.BINARY_LIGHT.apply(Bytes.wrapForRead(encoded(r))),
                RecordCodec.Mode.FULL);
        assertThat(d.integrity()).isEqualTo(DecodedRecord.Integrity.CHECKED);
        assertThat(d.record()).isEqualTo(r);
    }

    private static String randomText(Random random) {
        int kind = random.nextInt(6);
        if (kind == 0) {
            return null;
        }
        int len = kind == 1 ? random.nextInt(40) : kind == 2 ? 25 + random.nextInt(300) : random.nextInt(12);
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            int pick = random.nextInt(20);
            sb.append(pick == 0 ? (char) (0x80 + random.nextInt(0x780)) : pick == 1 ? (char) random.nextInt(0x10000)
                    : (char) (0x20 + random.nextInt(0x5f)));
        }
        return sb.toString();
    }
}

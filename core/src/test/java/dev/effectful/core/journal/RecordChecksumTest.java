package dev.effectful.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every record carries a CRC32C: any changed byte is damage, and whose record it is stays known only when sure. */
class RecordChecksumTest {

    private static final JournalRecord INTENT = JournalRecord.of(RecordType.INTENT).task("order-17").actor("alice")
            .call("charge_card").kind(Kind.MONEY).intentKey("0123456789abcdef0123456789abcdef").attempt(1)
            .attemptId("order-17-01234567-a1").started(1_764_000_000_000L).budgetLeftS(30L)
            .args("{\"amount\":1200,\"card\":\"fp:1a2b\"}").pid(4242).thread("main").build();

    private static byte[] encoded(JournalRecord r) {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap();
        RecordCodec.write(r, WireType.BINARY_LIGHT.apply(b));
        return b.toByteArray();
    }

    private static DecodedRecord decode(byte[] body, RecordCodec.Mode mode) {
        Wire w = WireType.BINARY_LIGHT.apply(Bytes.wrapForRead(body));
        return RecordCodec.decode(w, mode);
    }

    @Test
    void aSoundRecordIsCheckedInEveryMode() {
        byte[] body = encoded(INTENT);
        for (RecordCodec.Mode mode : RecordCodec.Mode.values()) {
            DecodedRecord d = decode(body, mode);
            assertThat(d.integrity()).as(mode.name()).isEqualTo(DecodedRecord.Integrity.CHECKED);
            assertThat(d.record().intentKey()).isEqualTo(INTENT.intentKey());
        }
        assertThat(decode(body, RecordCodec.Mode.FULL).record()).isEqualTo(INTENT);
    }

    @Test
    void everySingleBitFlipAnywhereInARecordIsDamage() {
        byte[] body = encoded(INTENT);
        for (int i = 0; i < body.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] copy = body.clone();
                copy[i] ^= (byte) (1 << bit);
                DecodedRecord d = decode(copy, RecordCodec.Mode.INDEX);
                assertThat(d.integrity()).as("byte " + i + " bit " + bit).isNotEqualTo(DecodedRecord.Integrity.CHECKED);
                if (d.integrity() == DecodedRecord.Integrity.UNCHECKED) {
                    // only a flip inside the crc field's own header can make it look like an older record;
                    // ChecksumWatch catches that among checksummed records
                    assertThat(i).as("byte " + i + " bit " + bit).isGreaterThanOrEqualTo(body.length - RecordCodec.TRAILER_LENGTH);
                    ChecksumWatch watch = new ChecksumWatch();
                    watch.judge(decode(body, RecordCodec.Mode.INDEX));
                    assertThat(watch.judge(d).damaged()).isTrue();
                }
            }
        }
    }

    @Test
    void aDamagedArgumentKeepsItsTaskButAChangedTaskOrKeyBelongsToNobody() {
        byte[] body = encoded(INTENT);
        String text = new String(body, java.nio.charset.StandardCharsets.ISO_8859_1);

        byte[] args = body.clone();
        args[text.indexOf("1200")] = '9';
        DecodedRecord a = decode(args, RecordCodec.Mode.INDEX);
        assertThat(a.damaged()).isTrue();
        assertThat(a.attributed()).isTrue();
        assertThat(a.record().task()).isEqualTo("order-17");
        assertThat(a.trusted()).as("a damaged record is never acted on").isNull();

        byte[] task = body.clone();
        task[text.indexOf("order-17")] = 'x';
        DecodedRecord t = decode(task, RecordCodec.Mode.INDEX);
        assertThat(t.damaged()).isTrue();
        assertThat(t.attributed()).as("a plausible but changed task name is not believed").isFalse();

        byte[] key = body.clone();
        // the key is on disk as its 128 bits (the wire's UUID: code 0xA0, then the high 64 bits little-endian)
        int bits = text.indexOf("\u00a0\u00ef\u00cd\u00ab\u0089") + 1;
        assertThat(bits).as("the key's bits in the record").isPositive();
        java.util.Arrays.fill(key, bits, bits + 16, (byte) 0);
        DecodedRecord k = decode(key, RecordCodec.Mode.INDEX);
        assertThat(k.damaged()).isTrue();
        assertThat(k.attributed()).isFalse();
    }

    @Test
    void aRecordWrittenBeforeChecksumsReadsAsUnchecked() {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap();
        Wire w = WireType.BINARY_LIGHT.apply(b);
        w.writeEventId(1).text("intent");
        w.writeEventId(2).text("order-17");
        w.writeEventId(6).text(INTENT.intentKey());
        w.writeEventId(19).int64(4242);
        DecodedRecord d = decode(b.toByteArray(), RecordCodec.Mode.FULL);
        assertThat(d.integrity()).isEqualTo(DecodedRecord.Integrity.UNCHECKED);
        assertThat(d.trusted().task()).isEqualTo("order-17");
        assertThat(new ChecksumWatch().judge(d).damaged()).as("older records before any checked one are fine").isFalse();
    }
}

package dev.effectful.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

/**
 * Not a test: run once by hand to see what the checksums add per record (the README quotes it).
 * Times the two checksums alone (copy + CRC32C over the record's bytes, and the identity checksum)
 * against encoding the whole record, on one thread.
 *
 * <pre>java -cp runtime/target/classes:runtime/target/test-classes:$(deps) dev.effectful.core.journal.ChecksumCost</pre>
 */
public final class ChecksumCost {

    private ChecksumCost() {
    }

    public static void main(String[] args) {
        JournalRecord r = JournalRecord.of(RecordType.INTENT).task("order-17").actor("alice").call("charge_card")
                .kind(Kind.MONEY).intentKey("0123456789abcdef0123456789abcdef").attempt(1)
                .attemptId("order-17-01234567-a1").started(1_764_000_000_000L).budgetLeftS(30L)
                .args("{\"amount\":1200,\"card\":\"fp:1a2b\"}").pid(4242).thread("main").build();
        Bytes<java.nio.ByteBuffer> b = Bytes.elasticByteBuffer(512); // off-heap, like the mapped journal
        Wire w = WireType.BINARY_LIGHT.apply(b);
        RecordCodec.write(r, w);
        long len = b.writePosition();
        RecordCodec.Scratch s = RecordCodec.SCRATCH.get();
        int n = 5_000_000;
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += s.identity(r) + s.crc(b, 0, len - RecordCodec.TRAILER_LENGTH);
            }
            long sums = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                b.clear();
                RecordCodec.write(r, w);
                sink += b.writePosition();
            }
            long write = System.nanoTime() - t0;
            System.out.printf("record of %d bytes: checksums %.1f ns, whole encode (with them) %.1f ns%n", len,
                    (double) sums / n, (double) write / n);
        }
        System.out.println(sink == 42 ? "" : "done");
    }
}

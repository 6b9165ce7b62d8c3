package dev.effectful.core.journal;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The record codec over generated input. (1) Any {@link JournalRecord}, every field set or absent, every
 * {@link RecordType}, Unicode, empty and long text, comes back from {@link RecordCodec#write} then
 * {@link RecordCodec#decode} equal and {@code CHECKED}: the journal is the only memory of what a call
 * did, so a field that does not survive is a call forgotten. (2) Any byte string given to the reader, in
 * every {@link RecordCodec.Mode}, yields a {@link DecodedRecord} (a record, or damage) within a bound of
 * time and of allocation: a replay at start reads whatever the disk holds, inside the host application,
 * where an exception, a hang or a length field claiming 2 GB would take the application down with it.
 * Random bytes, mutations of real records and records whose text length prefix claims up to 2^62 bytes
 * are all tried; the allocation bound (1 MiB + 16 bytes per input byte, measured per thread) holds the
 * reader to allocating in proportion to what it was given.
 */
@AddLifecycleHook(ScaledTries.class)
class RecordCodecProperties {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** One reader thread for every try: a decode that does not return within the bound is a hang. */
    private static final ExecutorService READER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "codec-property-reader");
        t.setDaemon(true);
        return t;
    });

    @Property(tries = 2000)
    void everyRecordRoundTrips(@ForAll("records") JournalRecord r) {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap();
        RecordCodec.write(r, WireType.BINARY_LIGHT.apply(b));
        for (RecordCodec.Mode mode : RecordCodec.Mode.values()) {
            DecodedRecord d = RecordCodec.decode(WireType.BINARY_LIGHT.apply(Bytes.wrapForRead(b.toByteArray())), mode);
            assertThat(d.integrity()).as(mode.name()).isEqualTo(DecodedRecord.Integrity.CHECKED);
            if (mode == RecordCodec.Mode.FULL) {
                assertThat(d.record()).isEqualTo(expectedAfterReading(r));
            } else {
                assertThat(d.record().intentKey()).isEqualTo(r.intentKey());
                assertThat(d.record().type()).isEqualTo(r.type());
            }
        }
    }

    @Property(tries = 2500)
    void anyBytesReadAsARecordOrDamage(@ForAll("bytesToRead") byte[] input) throws Exception {
        for (RecordCodec.Mode mode : RecordCodec.Mode.values()) {
            Future<long[]> f = READER.submit(() -> {
                long before = THREADS.getCurrentThreadAllocatedBytes();
                DecodedRecord d = RecordCodec.decode(WireType.BINARY_LIGHT.apply(Bytes.wrapForRead(input)), mode);
                long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
                if (d == null || (d.damaged() && d.trusted() != null) || (!d.damaged() && d.record() == null)) {
                    throw new AssertionError("not a record and not damage: " + d);
                }
                return new long[]{allocated};
            });
            long allocated;
            try {
                // an ExecutionException carries whatever the reader threw: an Error or an exception is a failure
                allocated = f.get(10, TimeUnit.SECONDS)[0];
            } catch (java.util.concurrent.TimeoutException e) {
                f.cancel(true);
                throw new AssertionError("decode of " + input.length + " bytes did not return within 10 s (" + mode + ")");
            }
            assertThat(allocated).as("bytes allocated reading %d bytes (%s)", input.length, mode)
                    .isLessThan((1L << 20) + 16L * input.length);
        }
    }

    /** What a reader gives back: records that omit their writer read with pid 0 and no thread. */
    private static JournalRecord expectedAfterReading(JournalRecord r) {
        if (!r.type().omitsWriter()) {
            return r;
        }
        return new JournalRecord(r.type(), r.task(), r.actor(), r.call(), r.kind(), r.intentKey(), r.attempt(),
                r.attemptId(), r.started(), r.budgetLeftS(), r.args(), r.outcome(), r.effectApplied(), r.retryAfterS(),
                r.deadlineLeftS(), r.message(), r.result(), r.probe(), 0, null, r.durationMs(), r.item(), r.reentry(),
                r.header(), r.verdict(), r.by(), r.note(), r.via());
    }

    // ---- generators

    /** Text as callers give it: absent, empty, ASCII, any valid Unicode (supplementary too), now and then long. */
    static Arbitrary<String> text() {
        Arbitrary<String> unicode = Arbitraries.integers().between(0, 0x10FFFF)
                .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
                .list().ofMaxSize(40)
                .map(cps -> {
                    StringBuilder sb = new StringBuilder();
                    cps.forEach(sb::appendCodePoint);
                    return sb.toString();
                });
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just((String) null)),
                Tuple.of(1, Arbitraries.just("")),
                Tuple.of(6, Arbitraries.strings().ascii().ofMaxLength(40)),
                Tuple.of(4, unicode),
                Tuple.of(1, Arbitraries.strings().ascii().ofMinLength(200).ofMaxLength(5000)));
    }

    /** An intent key as the engine writes it (32 hex digits: stored as 128 bits), or any other text. */
    static Arbitrary<String> intentKey() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.strings().withChars("0123456789abcdef").ofLength(32)),
                Tuple.of(1, text()));
    }

    private static Arbitrary<Long> optionalLong() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just((Long) null)),
                Tuple.of(2, Arbitraries.longs().between(0, 100_000)),
                Tuple.of(1, Arbitraries.longs()));
    }

    private record Numbers(String key, int attempt, long started, long pid, List<Long> optional) {
    }

    @Provide
    static Arbitrary<JournalRecord> records() {
        Arbitrary<Numbers> numbers = Combinators.combine(intentKey(),
                Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.integers().between(0, 20)), Tuple.of(1, Arbitraries.integers())),
                Arbitraries.longs(), Arbitraries.longs(), optionalLong().list().ofSize(4)).as(Numbers::new);
        return Combinators.combine(Arbitraries.of(RecordType.class), Arbitraries.of(Kind.class).injectNull(0.2),
                        Arbitraries.of(OutcomeWord.class).injectNull(0.3), Arbitraries.of(Effect.class).injectNull(0.3),
                        Arbitraries.of(ProbeResult.class).injectNull(0.6), text().list().ofSize(14), numbers,
                        Arbitraries.of(true, false))
                .as((type, kind, outcome, effect, probe, t, n, derivedId) -> {
                    List<Long> o = n.optional();
                    // an attempt id the engine would make (written as a one-byte mark), or any text
                    String attemptId = derivedId && t.get(0) != null && n.key() != null && n.key().length() >= 8
                            && n.attempt() >= 0 ? AttemptIds.of(t.get(0), n.key(), n.attempt()) : t.get(3);
                    return new JournalRecord(type, t.get(0), t.get(1), t.get(2), kind, n.key(), n.attempt(), attemptId,
                            n.started(), o.get(0), t.get(4), outcome, effect, o.get(1), o.get(2), t.get(5), t.get(6), probe,
                            n.pid(), t.get(7), o.get(3), t.get(8), t.get(9), t.get(10), t.get(11), t.get(12),
                            t.get(3), t.get(13));
                });
    }

    /** The bytes of {@code r} as the journal holds them. */
    static byte[] encoded(JournalRecord r) {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap();
        RecordCodec.write(r, WireType.BINARY_LIGHT.apply(b));
        return b.toByteArray();
    }

    /**
     * What a reader may be handed: random bytes; a real record flipped, cut, or with bytes inserted; and a
     * real record followed by a text field whose length prefix (0xB8 and a stop-bit number) claims far
     * more bytes than follow, up to 2^62, with or without a valid checksum trailer after it.
     */
    @Provide
    static Arbitrary<byte[]> bytesToRead() {
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(400);
        Arbitrary<byte[]> mutated = Combinators.combine(records(), Arbitraries.integers().between(0, Integer.MAX_VALUE).list().ofMinSize(1).ofMaxSize(6),
                Arbitraries.integers().between(0, 3)).as((r, at, how) -> {
            byte[] b = encoded(r);
            for (int x : at) {
                int i = x % Math.max(1, b.length);
                switch (how) {
                    case 0 -> b[i] ^= (byte) (1 << (x & 7));
                    case 1 -> b = java.util.Arrays.copyOf(b, i);
                    case 2 -> {
                        byte[] c = new byte[b.length + 1];
                        System.arraycopy(b, 0, c, 0, i);
                        c[i] = (byte) (x >>> 8);
                        System.arraycopy(b, i, c, i + 1, b.length - i);
                        b = c;
                    }
                    default -> b[i] = (byte) (x >>> 16);
                }
                if (b.length == 0) {
                    break;
                }
            }
            return b;
        });
        Arbitrary<byte[]> hugeLength = Combinators.combine(records(), Arbitraries.integers().between(1, 31),
                Arbitraries.longs().between(1L << 16, 1L << 62), Arbitraries.of(true, false), Arbitraries.of(true, false))
                .as((r, field, claimed, trailer, head) -> {
                    Bytes<byte[]> b = Bytes.allocateElasticOnHeap();
                    byte[] body = encoded(r);
                    // the record without its trailer, then one text field claiming `claimed` bytes
                    b.write(body, 0, head ? body.length - RecordCodec.TRAILER_LENGTH : 0);
                    if (!head) {
                        b.writeUnsignedByte(0xBA); // field number ...
                        b.writeStopBit(1);         // ... 1: type, then a text that says it is huge
                    } else {
                        b.writeUnsignedByte(0xBA);
                        b.writeStopBit(field);
                    }
                    b.writeUnsignedByte(0xB8);
                    b.writeStopBit(claimed);
                    b.write("abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    if (trailer) {
                        int crc = RecordCodec.SCRATCH.get().crc(b, 0, b.writePosition());
                        b.write(TRAILER_PREFIX);
                        b.writeInt(crc);
                    }
                    return b.toByteArray();
                });
        return Arbitraries.frequencyOf(Tuple.of(3, random), Tuple.of(4, mutated), Tuple.of(2, hugeLength));
    }

    /** The bytes before the 4 checksum bytes of the trailer, as the codec writes them. */
    private static final byte[] TRAILER_PREFIX;

    static {
        byte[] any = encoded(JournalRecord.of(RecordType.DEDUP).task("t").build());
        TRAILER_PREFIX = java.util.Arrays.copyOfRange(any, any.length - RecordCodec.TRAILER_LENGTH, any.length - 4);
    }
}

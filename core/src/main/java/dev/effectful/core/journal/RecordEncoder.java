package dev.effectful.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.BinaryWireCode;
import net.openhft.chronicle.wire.ValueOut;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

import java.util.zip.CRC32C;

/**
 * Encodes a record into a per-thread heap buffer, byte for byte what Chronicle's binary wire writes
 * for it (the test sources' {@code WireReference} is the reference, and {@code RecordEncoderTest} holds
 * the two equal), checksums included. Done before the queue's write lock is taken, so an append
 * holds that lock only for one copy of the finished bytes: with the encoding and the CRC32C inside
 * the lock, a second writing thread spun on it for the whole encoding of the first one's record.
 *
 * <p>ASCII text (nearly every field: keys, ids, words, JSON of ASCII values) is copied as raw
 * bytes, and numbers written with the wire's own codes; any other text, and the rare number past
 * 32 bits that a float32 holds exactly, go through a scratch wire, so their encoding stays Chronicle's.
 * Not thread-safe: one per thread ({@link #get}), and {@link #buffer} is valid until its next use.
 */
final class RecordEncoder {

    private static final ThreadLocal<RecordEncoder> ENCODERS = ThreadLocal.withInitial(RecordEncoder::new);

    /** Chronicle's binary wire: a text of fewer than 32 UTF-8 bytes is one byte 0xE0 + length, then the bytes. */
    private static final int SHORT_TEXT = 0xE0;
    /** ... a longer one is 0xB8, the length as a stop-bit number, then the bytes. */
    private static final int ANY_TEXT = 0xB8;

    /**
     * A number 0..127 is written as its own byte (which the wire reads as that number: {@code
     * RecordCodec.number}); any other number as Chronicle's binary wire writes it, in the smallest of
     * these that holds it (a value past 32 bits that a float32 holds exactly is written as that
     * float). RecordEncoderTest holds every range equal to Chronicle's own writer.
     */
    private static final int UINT8 = 0xA1;
    private static final int UINT16 = 0xA2;
    private static final int UINT32 = 0xA3;
    private static final int INT8 = 0xA4;
    private static final int INT16 = 0xA5;
    private static final int INT32 = 0xA6;
    private static final int INT64 = 0xA7;

    /** The bytes {@code writeEventId(id)} writes, per field id. */
    private static final byte[][] EVENT_IDS = eventIds();
    /** The bytes before the 4 little-endian bytes of {@code writeEventId(IDENTITY).fixedInt32(v)}. */
    private static final byte[] IDENTITY_PREFIX = fixedInt32Prefix(RecordCodec.Field.IDENTITY);
    private static final byte[] CRC_PREFIX = fixedInt32Prefix(RecordCodec.Field.CRC);
    /** The wire's {@code true}: the mark that stands for an attempt id {@code AttemptIds.of} would make. */
    private static final byte[] TRUE = {(byte) BinaryWireCode.TRUE};

    private final CRC32C crc = new CRC32C();
    private final Bytes<byte[]> scratchBytes = Bytes.allocateElasticOnHeap(64);
    private final Wire scratch = WireType.BINARY_LIGHT.apply(scratchBytes);
    private byte[] buf = new byte[512];
    /** The intent key's two halves, as {@link HexKeys#parse} leaves them. */
    private final long[] keyBits = new long[2];
    private int n;

    static RecordEncoder get() {
        return ENCODERS.get();
    }

    /** Encodes {@code r}; the record is {@link #buffer}{@code [0, }{@link #length}{@code )}. */
    RecordEncoder encode(JournalRecord r) {
        n = 0;
        boolean derived = RecordCodec.attemptIdDerived(r);
        long head = RecordCodec.head(r, derived);
        if (head >= 0) {
            int64(RecordCodec.Field.HEAD, head);
        } else {
            word(RecordCodec.Field.TYPE, r.type());
        }
        text(RecordCodec.Field.TASK, r.task());
        text(RecordCodec.Field.ACTOR, r.actor());
        text(RecordCodec.Field.CALL, r.call());
        if (head < 0) {
            word(RecordCodec.Field.KIND, r.kind());
        }
        intentKey(r.intentKey());
        if (head < 0 && r.attempt() != 0) {
            // int32 of an int writes what int64 of it writes (RecordEncoderTest)
            int64(RecordCodec.Field.ATTEMPT, r.attempt());
        }
        if (!derived) {
            text(RecordCodec.Field.ATTEMPT_ID, r.attemptId());
        } else if (head < 0) {
            eventId(RecordCodec.Field.ATTEMPT_ID);
            raw(TRUE);
        }
        int64(RecordCodec.Field.STARTED, r.started());
        number(RecordCodec.Field.BUDGET_LEFT_S, r.budgetLeftS());
        text(RecordCodec.Field.ARGS, r.args());
        if (head < 0) {
            word(RecordCodec.Field.OUTCOME, r.outcome());
            word(RecordCodec.Field.EFFECT_APPLIED, r.effectApplied());
        }
        number(RecordCodec.Field.RETRY_AFTER_S, r.retryAfterS());
        number(RecordCodec.Field.DEADLINE_LEFT_S, r.deadlineLeftS());
        text(RecordCodec.Field.MESSAGE, r.message());
        text(RecordCodec.Field.RESULT, r.result());
        word(RecordCodec.Field.PROBE, r.probe());
        if (!RecordCodec.omitsWriter(r)) {
            int64(RecordCodec.Field.PID, r.pid());
            text(RecordCodec.Field.THREAD, r.thread());
        }
        number(RecordCodec.Field.DURATION_MS, r.durationMs());
        text(RecordCodec.Field.ITEM, r.item());
        text(RecordCodec.Field.REENTRY, r.reentry());
        text(RecordCodec.Field.HEADER, r.header());
        text(RecordCodec.Field.VERDICT, r.verdict());
        text(RecordCodec.Field.BY, r.by());
        text(RecordCodec.Field.NOTE, r.note());
        text(RecordCodec.Field.VIA, r.via());
        int identity = RecordCodec.SCRATCH.get().identity(r);
        raw(IDENTITY_PREFIX);
        int32le(identity);
        crc.reset();
        crc.update(buf, 0, n);
        int sum = (int) crc.getValue();
        raw(CRC_PREFIX);
        int32le(sum);
        return this;
    }

    byte[] buffer() {
        return buf;
    }

    int length() {
        return n;
    }

    private void text(RecordCodec.Field field, String value) {
        if (value == null) {
            return;
        }
        eventId(field);
        int len = value.length();
        // worst case for the ASCII path: a 0xB8 code, a 5-byte stop-bit length, the bytes
        ensure(len + 6);
        int header = len < 32 ? 1 : 1 + stopBitLength(len);
        int p = n + header;
        for (int i = 0; i < len; i++) {
            char c = value.charAt(i);
            if (c >= 0x80) {
                // not ASCII: Chronicle's own UTF-8 (it encodes each char on its own), through the wire
                scratchBytes.clear();
                scratch.getValueOut().text(value);
                copyScratch();
                return;
            }
            buf[p + i] = (byte) c;
        }
        if (len < 32) {
            buf[n] = (byte) (SHORT_TEXT + len);
        } else {
            buf[n] = (byte) ANY_TEXT;
            writeStopBit(n + 1, len);
        }
        n = p + len;
    }

    /** See {@code RecordCodec.word}: a one-byte code (a small number on the wire), else the word as text. */
    private void word(RecordCodec.Field field, Enum<?> value) {
        if (value == null) {
            return;
        }
        int code = Codes.of(value);
        if (code > 0) {
            eventId(field);
            ensure(1);
            buf[n++] = (byte) code;
        } else {
            text(field, Codes.word(value));
        }
    }

    /** A hex key as the wire's UUID: its code, then the high and the low 64 bits, each little-endian. */
    private void intentKey(String key) {
        // parsed once into this encoder's own pair: a record's hot path, once per record
        if (!HexKeys.parse(key, keyBits)) {
            text(RecordCodec.Field.INTENT_KEY, key);
            return;
        }
        eventId(RecordCodec.Field.INTENT_KEY);
        ensure(17);
        buf[n++] = (byte) BinaryWireCode.UUID;
        int64le(keyBits[0]);
        int64le(keyBits[1]);
    }

    private void int64le(long v) {
        for (int i = 0; i < 8; i++) {
            buf[n++] = (byte) (v >>> (8 * i));
        }
    }

    private void number(RecordCodec.Field field, Long value) {
        if (value != null) {
            int64(field, value);
        }
    }

    private void int64(RecordCodec.Field field, long value) {
        eventId(field);
        ensure(9);
        if (value >= 0) {
            if (value < 0x80) {
                // its own byte: see RecordCodec.number
                code((int) value);
            } else if (value <= 0xFF) {
                code(UINT8);
                le(value, 1);
            } else if (value <= Short.MAX_VALUE) {
                code(INT16);
                le(value, 2);
            } else if (value <= 0xFFFF) {
                code(UINT16);
                le(value, 2);
            } else if (value <= Integer.MAX_VALUE) {
                code(INT32);
                le(value, 4);
            } else if (value <= 0xFFFF_FFFFL) {
                code(UINT32);
                le(value, 4);
            } else {
                wide(value);
            }
        } else if (value >= Byte.MIN_VALUE) {
            code(INT8);
            le(value, 1);
        } else if (value >= Short.MIN_VALUE) {
            code(INT16);
            le(value, 2);
        } else if (value >= Integer.MIN_VALUE) {
            code(INT32);
            le(value, 4);
        } else {
            wide(value);
        }
    }

    /** Beyond 32 bits: a float32 when the float holds it exactly (through the wire, as rare as it is), else an int64. */
    private void wide(long value) {
        if ((long) (float) value == value) {
            scratchBytes.clear();
            ValueOut out = scratch.getValueOut();
            out.int64(value);
            copyScratch();
            return;
        }
        code(INT64);
        le(value, 8);
    }

    private void code(int code) {
        buf[n++] = (byte) code;
    }

    /** The low {@code bytes} bytes of {@code v}, little-endian. */
    private void le(long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            buf[n++] = (byte) (v >>> (8 * i));
        }
    }

    private void eventId(RecordCodec.Field field) {
        raw(EVENT_IDS[field.id]);
    }

    private void raw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, n, b.length);
        n += b.length;
    }

    private void copyScratch() {
        int len = (int) scratchBytes.writePosition();
        ensure(len);
        int read = 0;
        while (read < len) {
            long got = scratchBytes.read(read, buf, n + read, len - read);
            if (got <= 0) {
                throw new IllegalStateException("scratch wire short by " + (len - read) + " bytes");
            }
            read += (int) got;
        }
        n += len;
    }

    private void int32le(int v) {
        ensure(4);
        buf[n] = (byte) v;
        buf[n + 1] = (byte) (v >>> 8);
        buf[n + 2] = (byte) (v >>> 16);
        buf[n + 3] = (byte) (v >>> 24);
        n += 4;
    }

    private void ensure(int more) {
        if (n + more > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(n + more, buf.length * 2));
        }
    }

    private static int stopBitLength(int v) {
        int len = 1;
        while ((v >>>= 7) != 0) {
            len++;
        }
        return len;
    }

    /** Chronicle's stop-bit encoding of a non-negative int: 7 bits a byte, low first, high bit set when more follow. */
    private void writeStopBit(int at, int v) {
        while ((v & ~0x7F) != 0) {
            buf[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[at] = (byte) v;
    }

    private static byte[][] eventIds() {
        byte[][] out = new byte[32][];
        for (RecordCodec.Field f : RecordCodec.Field.values()) {
            Bytes<byte[]> b = Bytes.allocateElasticOnHeap(8);
            WireType.BINARY_LIGHT.apply(b).writeEventId(f.id);
            out[f.id] = b.toByteArray();
        }
        return out;
    }

    private static byte[] fixedInt32Prefix(RecordCodec.Field f) {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap(16);
        WireType.BINARY_LIGHT.apply(b).writeEventId(f.id).fixedInt32(0);
        byte[] all = b.toByteArray();
        return java.util.Arrays.copyOf(all, all.length - 4);
    }
}

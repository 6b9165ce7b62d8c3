package dev.effectful.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.WireIn;
import net.openhft.chronicle.wire.WireOut;

/**
 * Writes and reads a {@link JournalRecord} as wire fields. Reading is by field with no type
 * information taken from the data, so a damaged or foreign record can never make the reader
 * instantiate a class (no polymorphic deserialization); unknown fields are skipped.
 *
 * <p>On disk each field is a small number ({@link Field#id}), not its name: names were ~40% of
 * every record. The numbers are part of the journal format: never renumber one, only add. Names
 * are still read, so journals written before the numbers stay readable.
 *
 * <p>The values are small too; each reader still takes the older, larger shape, told apart by the
 * wire's own type code: a 32-hex-digit intent key is its 128 bits ({@link HexKeys}, the wire's UUID),
 * an attempt id that {@link AttemptIds#of} makes of the record's task, key and attempt is the wire's
 * {@code true} (rebuilt on reading), the closed words are one-byte codes ({@link Codes}), and a
 * dedup record carries no pid or thread. Then (disk per attempt 314 B -> under 300 B) a record whose
 * closed words have codes starts with one {@code head} number standing for its type, kind, outcome,
 * effect, attempt and the derived attempt id's mark ({@link #head}), and a number 0..127 is one byte.
 * Everything above the codec sees the same text as before.
 *
 * <p>Every record ends in two checksums (CRC32C), both fixed-width so a reader finds the last one
 * at a known place without decoding: {@code identity} over the record's type, task, intent key and
 * call as text, and {@code crc} over every byte of the record before the {@code crc} field (the
 * identity checksum included). A changed byte anywhere in the record fails {@code crc}; whether the
 * damage spared the fields that say whose record it is, {@code identity} tells (see {@link
 * DecodedRecord}). Older records have neither and read as {@link DecodedRecord.Integrity#UNCHECKED};
 * older readers skip both as unknown fields.
 *
 * <p>This class owns the format (field numbers, the {@code head} number, the checksums) and chooses how much
 * of a record is read; {@link RecordReader} decodes the fields, {@link RecordEncoder} writes them.
 */
public final class RecordCodec {

    /** The journal's fields: wire id, and the name used in exports and in older journals. */
    enum Field {
        TYPE(1, "type"), TASK(2, "task"), ACTOR(3, "actor"), CALL(4, "call"), KIND(5, "kind"),
        INTENT_KEY(6, "intent_key"), ATTEMPT(7, "attempt"), ATTEMPT_ID(8, "attempt_id"), STARTED(9, "started"),
        BUDGET_LEFT_S(10, "budget_left_s"), ARGS(11, "args"), OUTCOME(12, "outcome"),
        EFFECT_APPLIED(13, "effect_applied"), RETRY_AFTER_S(14, "retry_after_s"),
        DEADLINE_LEFT_S(15, "deadline_left_s"), MESSAGE(16, "message"), RESULT(17, "result"), PROBE(18, "probe"),
        PID(19, "pid"), THREAD(20, "thread"), DURATION_MS(21, "duration_ms"), ITEM(22, "item"),
        IDENTITY(23, "identity"), CRC(24, "crc"), REENTRY(25, "reentry"), HEAD(26, "head"),
        HEADER(27, "header"), VERDICT(28, "verdict"), BY(29, "by"), NOTE(30, "note"),
        VIA(31, "via");

        private static final Field[] BY_ID = new Field[32];
        private static final java.util.Map<String, Field> BY_NAME = new java.util.HashMap<>();

        static {
            for (Field f : values()) {
                BY_ID[f.id] = f;
                BY_NAME.put(f.word, f);
            }
        }

        final int id;
        final String word;

        Field(int id, String word) {
            this.id = id;
            this.word = word;
        }

        static Field byId(long id) {
            return id > 0 && id < BY_ID.length ? BY_ID[(int) id] : null;
        }

        static Field byName(CharSequence name) {
            return BY_NAME.get(name.toString());
        }
    }

    private RecordCodec() {
    }

    /** The bytes before the 4 checksum bytes at the end of every checked record: field 24, fixed int32. */
    private static final byte[] TRAILER = trailerPrefix();
    /** The whole {@code crc} field: {@link #TRAILER} and the 4 bytes of the checksum. */
    static final int TRAILER_LENGTH = TRAILER.length + 4;

    static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * Writes {@code r} at the wire's position: the bytes {@link RecordEncoder} made of it (held equal,
     * field by field, to what Chronicle's own wire writer makes of it by {@code RecordEncoderTest}).
     */
    public static void write(JournalRecord r, WireOut w) {
        RecordEncoder e = RecordEncoder.get().encode(r);
        w.bytes().write(e.buffer(), 0, e.length());
    }

    /** Bits of {@link #head}: type, kind, outcome and effect codes (3 bits each), the derived mark, the attempt. */
    static final int HEAD_KIND = 3;
    static final int HEAD_OUTCOME = 6;
    static final int HEAD_EFFECT = 9;
    static final int HEAD_DERIVED = 12;
    static final int HEAD_ATTEMPT = 13;
    /** Attempts below this fit the head (it stays a 32-bit number); any other is written as its own field. */
    static final int HEAD_ATTEMPTS = 1 << 18;

    /**
     * The {@code head} field: one number that stands for {@code type}, {@code kind}, {@code outcome},
     * {@code effect_applied}, {@code attempt} and the derived attempt id's mark, written first in place of
     * them (each was a field of its own: two bytes of field number apiece). -1 when the record does not
     * fit it (a word without a code, a code past 7, an attempt out of range): then those fields are
     * written one by one, as before. A record is read the same either way.
     */
    static long head(JournalRecord r, boolean derived) {
        int type = Codes.of(r.type());
        int kind = r.kind() == null ? 0 : Codes.of(r.kind());
        int outcome = r.outcome() == null ? 0 : Codes.of(r.outcome());
        int effect = r.effectApplied() == null ? 0 : Codes.of(r.effectApplied());
        int attempt = r.attempt();
        if (type == 0 || type > 7 || (r.kind() != null && (kind == 0 || kind > 7))
                || (r.outcome() != null && (outcome == 0 || outcome > 7))
                || (r.effectApplied() != null && (effect == 0 || effect > 7)) || attempt < 0 || attempt >= HEAD_ATTEMPTS) {
            return -1;
        }
        return type | kind << HEAD_KIND | outcome << HEAD_OUTCOME | effect << HEAD_EFFECT
                | (derived ? 1 : 0) << HEAD_DERIVED | (long) attempt << HEAD_ATTEMPT;
    }

    /** How much of a record {@link #decode} reads. */
    public enum Mode {
        /** Every field. */
        FULL,
        /** What the intent index needs ({@link #readForIndex}). */
        INDEX,
        /** All but the bulky free text ({@link #readSummary}). */
        SUMMARY
    }

    /**
     * Reads a record and checks its checksum. A damaged record is decoded as far as it goes (every
     * field, whatever {@code mode} asks: rare, and whose it is matters more than speed then) and
     * returned as {@link DecodedRecord.Integrity#DAMAGED}; it never throws.
     */
    public static DecodedRecord decode(WireIn w, Mode mode) {
        Bytes<?> bytes = w.bytes();
        long start = bytes.readPosition();
        long end = bytes.readLimit();
        long checkedEnd = -1;
        boolean crcOk = false;
        Scratch s = SCRATCH.get();
        if (end - start >= TRAILER_LENGTH && hasTrailer(bytes, end - TRAILER_LENGTH)) {
            checkedEnd = end - TRAILER_LENGTH;
            crcOk = bytes.readInt(end - 4) == s.crc(bytes, start, checkedEnd);
        }
        if (checkedEnd >= 0 && crcOk) {
            bytes.readLimit(checkedEnd);
            try {
                JournalRecord r = RecordReader.read(w, mode == Mode.INDEX, mode == Mode.SUMMARY, null);
                if (r != null) {
                    return new DecodedRecord(r, DecodedRecord.Integrity.CHECKED, true, 0);
                }
            } catch (RuntimeException e) {
                // a checksum that matches over bytes that do not decode: a writer's bug, not a disk's;
                // still damage to whoever reads it
            } finally {
                bytes.readLimit(end);
            }
        }
        int found = s.crc(bytes, start, end);
        if (checkedEnd < 0) {
            bytes.readPosition(start);
            try {
                JournalRecord r = RecordReader.read(w, mode == Mode.INDEX, mode == Mode.SUMMARY, null);
                if (r != null) {
                    return new DecodedRecord(r, DecodedRecord.Integrity.UNCHECKED, false, found);
                }
            } catch (RuntimeException e) {
                // falls through: a record of ours that does not decode is damage
            }
        }
        return damaged(w, start, end, found, s);
    }

    /** Decodes what it can of a damaged record, every field, and checks its identity checksum. */
    private static DecodedRecord damaged(WireIn w, long start, long end, int found, Scratch s) {
        Bytes<?> bytes = w.bytes();
        bytes.readPosition(start);
        int[] identity = {0, 0}; // {seen, value}
        JournalRecord r;
        try {
            r = RecordReader.read(w, false, false, identity);
        } catch (RuntimeException e) {
            r = null;
        } finally {
            bytes.readLimit(end);
        }
        boolean verified = r != null && identity[0] == 1 && identity[1] == s.identity(r);
        return new DecodedRecord(r, DecodedRecord.Integrity.DAMAGED, verified, found);
    }

    /**
     * True when a document carries a checksummed record of ours that checks: used on documents marked
     * metadata, which Chronicle writes for itself and never look like this unless a data record's
     * header was damaged. Reads nothing else; leaves the read position where it was.
     */
    public static boolean looksLikeRecord(WireIn w) {
        Bytes<?> bytes = w.bytes();
        long start = bytes.readPosition();
        long end = bytes.readLimit();
        try {
            return end - start >= TRAILER_LENGTH && hasTrailer(bytes, end - TRAILER_LENGTH)
                    && bytes.readInt(end - 4) == SCRATCH.get().crc(bytes, start, end - TRAILER_LENGTH);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean hasTrailer(Bytes<?> bytes, long at) {
        for (int i = 0; i < TRAILER.length; i++) {
            if (bytes.readByte(at + i) != TRAILER[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] trailerPrefix() {
        Bytes<byte[]> b = Bytes.allocateElasticOnHeap(16);
        net.openhft.chronicle.wire.Wire w = net.openhft.chronicle.wire.WireType.BINARY_LIGHT.apply(b);
        w.writeEventId(Field.CRC.id).fixedInt32(0);
        byte[] all = b.toByteArray();
        return java.util.Arrays.copyOf(all, all.length - 4);
    }

    /** Null when the document is not a record of ours (no known type), or is damaged. */
    public static JournalRecord read(WireIn w) {
        return decode(w, Mode.FULL).trusted();
    }

    /**
     * Only what the intent index needs (type, key, attempt, times, outcome, effect, retry-after,
     * probe, and whether a result is stored, as an empty {@code result}); the rest is skipped
     * undecoded. Rebuilding the index reads every record at start, so this is most of its cost.
     */
    public static JournalRecord readForIndex(WireIn w) {
        return decode(w, Mode.INDEX).trusted();
    }

    /**
     * Everything but the bulky free text ({@code args}, {@code result} (present as empty),
     * {@code message}, {@code thread}): what a summary of a large journal needs, decoded fast.
     */
    public static JournalRecord readSummary(WireIn w) {
        return decode(w, Mode.SUMMARY).trusted();
    }

    /** The attempt id is the one {@link AttemptIds#of} makes of the record's own fields: a mark stands for it. */
    static boolean attemptIdDerived(JournalRecord r) {
        return AttemptIds.isOf(r.attemptId(), r.task(), r.intentKey(), r.attempt());
    }

    /** The record's type says whether it names its writer ({@link RecordType#omitsWriter}). */
    static boolean omitsWriter(JournalRecord r) {
        return r.type().omitsWriter();
    }

    /**
     * Per-thread buffers: checksums are computed on a copy of the record's bytes (a heap array is
     * what {@link java.util.zip.CRC32C} reads fastest) and of its identity fields' text.
     */
    static final class Scratch {
        private final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        private byte[] buf = new byte[512];

        int crc(Bytes<?> bytes, long from, long to) {
            int n = (int) (to - from);
            if (n > buf.length) {
                buf = new byte[Math.max(n, buf.length * 2)];
            }
            int read = 0;
            while (read < n) {
                long got = bytes.read(from + read, buf, read, n - read);
                if (got <= 0) {
                    break;
                }
                read += (int) got;
            }
            crc.reset();
            crc.update(buf, 0, read);
            return (int) crc.getValue();
        }

        int identity(JournalRecord r) {
            int n = 0;
            n = put(r.type().word(), n);
            n = put(r.task(), n);
            n = put(r.intentKey(), n);
            n = put(r.call(), n);
            crc.reset();
            crc.update(buf, 0, n);
            return (int) crc.getValue();
        }

        /** Each char as one byte when ASCII, else two; a null as a lone 0xFF; then a 0 separator. */
        private int put(String v, int n) {
            int need = n + 1 + (v == null ? 1 : v.length() * 2);
            if (need > buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.max(need, buf.length * 2));
            }
            if (v == null) {
                buf[n++] = (byte) 0xFF;
            } else {
                for (int i = 0; i < v.length(); i++) {
                    char c = v.charAt(i);
                    if (c < 0x80) {
                        buf[n++] = (byte) c;
                    } else {
                        buf[n++] = (byte) (c >>> 8 | 0x80);
                        buf[n++] = (byte) c;
                    }
                }
            }
            buf[n++] = 0;
            return n;
        }
    }
}

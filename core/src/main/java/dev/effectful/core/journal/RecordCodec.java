package dev.effectful.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.BinaryWireCode;
import net.openhft.chronicle.wire.ValueIn;
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
    private static final int HEAD_KIND = 3;
    private static final int HEAD_OUTCOME = 6;
    private static final int HEAD_EFFECT = 9;
    private static final int HEAD_DERIVED = 12;
    private static final int HEAD_ATTEMPT = 13;
    /** Attempts below this fit the head (it stays a 32-bit number); any other is written as its own field. */
    private static final int HEAD_ATTEMPTS = 1 << 18;

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
                JournalRecord r = read(w, mode == Mode.INDEX, mode == Mode.SUMMARY, null);
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
                JournalRecord r = read(w, mode == Mode.INDEX, mode == Mode.SUMMARY, null);
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
            r = read(w, false, false, identity);
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

    /** {@code identity}, when given, receives {seen, value} of the identity checksum field. */
    private static JournalRecord read(WireIn w, boolean lean, boolean summary, int[] identity) {
        StringBuilder name = new StringBuilder(16);
        JournalRecord.Builder b = null;
        // what a derived attempt id is made of (written before it: task, key and attempt come first)
        String task = null;
        String key = null;
        int attempt = 0;
        boolean derivedAttemptId = false;
        // type is always written first; anything before it means this is not our record
        long at = -1;
        while (w.hasMore()) {
            long now = w.bytes().readPosition();
            if (now == at) {
                // damaged bytes can decode as a field that consumes nothing: without this a replay
                // at start would spin here for ever and hang the host application
                return null;
            }
            at = now;
            long id = w.readEventNumber();
            ValueIn in;
            Field field;
            if (id == Long.MIN_VALUE) {
                in = w.read(name);
                field = Field.byName(name);
            } else {
                in = w.getValueIn();
                field = Field.byId(id);
            }
            if (b == null) {
                if (field == Field.HEAD) {
                    long head = in.int64();
                    RecordType type = Codes.type((int) (head & 7));
                    if (type == null || head < 0 || head >>> HEAD_ATTEMPT >= HEAD_ATTEMPTS) {
                        return null;
                    }
                    b = JournalRecord.of(type).pid(0).thread(null);
                    int kind = (int) (head >>> HEAD_KIND & 7);
                    int outcome = (int) (head >>> HEAD_OUTCOME & 7);
                    int effect = (int) (head >>> HEAD_EFFECT & 7);
                    // a code this reader does not know reads as null, as a field of its own would
                    if (kind != 0 && !lean) {
                        b.kind(Codes.kind(kind));
                    }
                    if (outcome != 0) {
                        b.outcome(Codes.outcome(outcome));
                    }
                    if (effect != 0) {
                        b.effectApplied(Codes.effect(effect));
                    }
                    derivedAttemptId = (head >>> HEAD_DERIVED & 1) == 1;
                    b.attempt(attempt = (int) (head >>> HEAD_ATTEMPT));
                    continue;
                }
                if (field != Field.TYPE) {
                    return null;
                }
                RecordType type = isCode(w) ? Codes.type(in.int32()) : RecordType.ofWord(in.text()).orElse(null);
                if (type == null) {
                    return null;
                }
                b = JournalRecord.of(type).pid(0).thread(null);
                continue;
            }
            if (field == null) {
                in.skipValue();
                continue;
            }
            if (field == Field.IDENTITY || field == Field.CRC) {
                if (identity != null && field == Field.IDENTITY) {
                    identity[0] = 1;
                    identity[1] = in.int32();
                } else {
                    in.skipValue();
                }
                continue;
            }
            if (lean) {
                switch (field) {
                    case INTENT_KEY -> b.intentKey(key(w, in));
                    case ATTEMPT -> b.attempt(in.int32());
                    case STARTED -> b.started(in.int64());
                    case OUTCOME -> b.outcome(isCode(w) ? Codes.outcome(in.int32()) : OutcomeWord.fromWord(in.text()));
                    case EFFECT_APPLIED -> b.effectApplied(isCode(w) ? Codes.effect(in.int32()) : Effect.fromWord(in.text()));
                    case RETRY_AFTER_S -> b.retryAfterS(in.int64());
                    case PROBE -> b.probe(isCode(w) ? Codes.probe(in.int32()) : ProbeResult.fromWord(in.text()));
                    case DURATION_MS -> b.durationMs(in.int64());
                    // an approval's verdict moves its intent's phase: the index needs it
                    case VERDICT -> b.verdict(in.text());
                    case RESULT -> {
                        in.skipValue();
                        b.result("");
                    }
                    default -> in.skipValue();
                }
                continue;
            }
            if (summary) {
                switch (field) {
                    case ARGS, MESSAGE, THREAD -> {
                        in.skipValue();
                        continue;
                    }
                    case RESULT -> {
                        in.skipValue();
                        b.result("");
                        continue;
                    }
                    default -> {
                        // decoded below
                    }
                }
            }
            switch (field) {
                case TASK -> b.task(task = in.text());
                case ACTOR -> b.actor(in.text());
                case CALL -> b.call(in.text());
                case KIND -> b.kind(isCode(w) ? Codes.kind(in.int32()) : Kind.fromWord(in.text()));
                case INTENT_KEY -> b.intentKey(key = key(w, in));
                case ATTEMPT -> b.attempt(attempt = in.int32());
                case ATTEMPT_ID -> {
                    if (w.bytes().peekUnsignedByte() == BinaryWireCode.TRUE) {
                        in.skipValue();
                        derivedAttemptId = true;
                    } else {
                        b.attemptId(in.text());
                    }
                }
                case STARTED -> b.started(in.int64());
                case BUDGET_LEFT_S -> b.budgetLeftS(in.int64());
                case ARGS -> b.args(in.text());
                case OUTCOME -> b.outcome(isCode(w) ? Codes.outcome(in.int32()) : OutcomeWord.fromWord(in.text()));
                case EFFECT_APPLIED -> b.effectApplied(isCode(w) ? Codes.effect(in.int32()) : Effect.fromWord(in.text()));
                case RETRY_AFTER_S -> b.retryAfterS(in.int64());
                case DEADLINE_LEFT_S -> b.deadlineLeftS(in.int64());
                case MESSAGE -> b.message(in.text());
                case RESULT -> b.result(in.text());
                case PROBE -> b.probe(isCode(w) ? Codes.probe(in.int32()) : ProbeResult.fromWord(in.text()));
                case PID -> b.pid(in.int64());
                case THREAD -> b.thread(in.text());
                case DURATION_MS -> b.durationMs(in.int64());
                case ITEM -> b.item(in.text());
                case REENTRY -> b.reentry(in.text());
                case HEADER -> b.header(in.text());
                case VERDICT -> b.verdict(in.text());
                case BY -> b.by(in.text());
                case NOTE -> b.note(in.text());
                case VIA -> b.via(in.text());
                default -> in.skipValue();
            }
        }
        if (b != null && derivedAttemptId && task != null && key != null && key.length() >= 8) {
            b.attemptId(AttemptIds.of(task, key, attempt));
        }
        return b == null ? null : b.build();
    }

    /** The value at the read position is a one-byte code (a small number), not a word. */
    private static boolean isCode(WireIn w) {
        return w.bytes().peekUnsignedByte() < 0x80;
    }

    /** An intent key written as its 128 bits reads back as its 32 hex digits; an older (text) one as it was. */
    private static String key(WireIn w, ValueIn in) {
        if (w.bytes().peekUnsignedByte() == BinaryWireCode.UUID) {
            java.util.UUID u = in.uuid();
            return HexKeys.text(u.getMostSignificantBits(), u.getLeastSignificantBits());
        }
        return in.text();
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

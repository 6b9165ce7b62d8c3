package dev.effectful.core.journal;

import dev.effectful.core.journal.HexKeys;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.WireOut;

import static dev.effectful.core.journal.RecordCodec.SCRATCH;
import static dev.effectful.core.journal.RecordCodec.attemptIdDerived;
import static dev.effectful.core.journal.RecordCodec.head;
import static dev.effectful.core.journal.RecordCodec.omitsWriter;

import dev.effectful.core.journal.RecordCodec.Field;
import dev.effectful.core.journal.RecordCodec.Scratch;

/**
 * The journal's format as Chronicle's own wire writer writes it, field by field: the reference that the
 * hand-made {@link RecordEncoder} is held equal to. Tests only; nothing appends with it.
 */
final class WireReference {

    private WireReference() {
    }

    /** {@code r} as Chronicle's wire writes it, field by field. */
    static void write(JournalRecord r, WireOut w) {
        Bytes<?> bytes = w.bytes();
        long start = bytes.writePosition();
        writeFields(r, w);
        Scratch s = SCRATCH.get();
        int identity = s.identity(r);
        w.writeEventId(Field.IDENTITY.id).fixedInt32(identity);
        // computed before the field is begun: the receiver expression would run first otherwise
        int crc = s.crc(bytes, start, bytes.writePosition());
        w.writeEventId(Field.CRC.id).fixedInt32(crc);
    }

    static void writeFields(JournalRecord r, WireOut w) {
        boolean derived = attemptIdDerived(r);
        long head = head(r, derived);
        if (head >= 0) {
            number(w, Field.HEAD, head);
        } else {
            word(w, Field.TYPE, r.type());
        }
        text(w, Field.TASK, r.task());
        text(w, Field.ACTOR, r.actor());
        text(w, Field.CALL, r.call());
        if (head < 0) {
            word(w, Field.KIND, r.kind());
        }
        String key = r.intentKey();
        long[] bits = new long[2];
        if (HexKeys.parse(key, bits)) {
            w.writeEventId(Field.INTENT_KEY.id).uuid(new java.util.UUID(bits[0], bits[1]));
        } else {
            text(w, Field.INTENT_KEY, key);
        }
        if (head < 0 && r.attempt() != 0) {
            number(w, Field.ATTEMPT, (long) r.attempt());
        }
        if (!derived) {
            text(w, Field.ATTEMPT_ID, r.attemptId());
        } else if (head < 0) {
            w.writeEventId(Field.ATTEMPT_ID.id).bool(true);
        }
        number(w, Field.STARTED, r.started());
        number(w, Field.BUDGET_LEFT_S, r.budgetLeftS());
        text(w, Field.ARGS, r.args());
        if (head < 0) {
            word(w, Field.OUTCOME, r.outcome());
            word(w, Field.EFFECT_APPLIED, r.effectApplied());
        }
        number(w, Field.RETRY_AFTER_S, r.retryAfterS());
        number(w, Field.DEADLINE_LEFT_S, r.deadlineLeftS());
        text(w, Field.MESSAGE, r.message());
        text(w, Field.RESULT, r.result());
        word(w, Field.PROBE, r.probe());
        if (!omitsWriter(r)) {
            number(w, Field.PID, r.pid());
            text(w, Field.THREAD, r.thread());
        }
        number(w, Field.DURATION_MS, r.durationMs());
        text(w, Field.ITEM, r.item());
        text(w, Field.REENTRY, r.reentry());
        text(w, Field.HEADER, r.header());
        text(w, Field.VERDICT, r.verdict());
        text(w, Field.BY, r.by());
        text(w, Field.NOTE, r.note());
        text(w, Field.VIA, r.via());
    }

    static void text(WireOut w, Field field, String value) {
        if (value != null) {
            w.writeEventId(field.id).text(value);
        }
    }

    static void number(WireOut w, Field field, Long value) {
        if (value != null) {
            number(w, field, value.longValue());
        }
    }

    /**
     * A number 0..127 is its own one byte (the wire reads a byte below 0x80 as that number, as it reads
     * the closed words' codes); the wire writes it as two. Any other number as the wire writes it.
     */
    static void number(WireOut w, Field field, long value) {
        if (value >= 0 && value < 0x80) {
            w.writeEventId(field.id);
            w.bytes().writeUnsignedByte((int) value);
        } else {
            w.writeEventId(field.id).int64(value);
        }
    }

    /** A closed word: its one-byte code when it has one, else (a constant newer than the table) its word. */
    static void word(WireOut w, Field field, Enum<?> value) {
        if (value == null) {
            return;
        }
        int code = Codes.of(value);
        if (code > 0) {
            w.writeEventId(field.id);
            // a byte below 0x80 is a small positive number on Chronicle's binary wire (read by int32())
            w.bytes().writeUnsignedByte(code);
        } else {
            w.writeEventId(field.id).text(Codes.word(value));
        }
    }
}

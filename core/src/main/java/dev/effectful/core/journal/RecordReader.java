package dev.effectful.core.journal;

import dev.effectful.core.journal.RecordCodec.Field;
import net.openhft.chronicle.wire.BinaryWireCode;
import net.openhft.chronicle.wire.ValueIn;
import net.openhft.chronicle.wire.WireIn;

import static dev.effectful.core.journal.RecordCodec.HEAD_ATTEMPT;
import static dev.effectful.core.journal.RecordCodec.HEAD_ATTEMPTS;
import static dev.effectful.core.journal.RecordCodec.HEAD_DERIVED;
import static dev.effectful.core.journal.RecordCodec.HEAD_EFFECT;
import static dev.effectful.core.journal.RecordCodec.HEAD_KIND;
import static dev.effectful.core.journal.RecordCodec.HEAD_OUTCOME;

/**
 * Reads one record's fields, in the order they come, into a {@link JournalRecord}: {@link RecordCodec}
 * checks the checksums and chooses how much is read, this class turns the wire's fields into values. One
 * method a section of a record: its start (a {@code head} number or a {@code type} field), the fields the
 * intent index needs, those a summary skips, and every other field. All static, on the reading thread's
 * stack: a record read allocates nothing but the record and its values.
 */
final class RecordReader {

    private RecordReader() {
    }

    /**
     * Null when the document is not a record of ours. {@code lean}: only what the intent index needs;
     * {@code summary}: all but the bulky free text; {@code identity}, when given, receives {seen, value}
     * of the identity checksum field.
     */
    static JournalRecord read(WireIn w, boolean lean, boolean summary, int[] identity) {
        StringBuilder name = new StringBuilder(16);
        JournalRecord.Builder b = null;
        // the attempt id is made of the record's task, key and attempt (written before it), rebuilt at the end
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
                    b = startFromHead(head, lean);
                    derivedAttemptId = (head >>> HEAD_DERIVED & 1) == 1;
                } else {
                    b = startFromType(w, in, field);
                }
                if (b == null) {
                    return null;
                }
                continue;
            }
            if (field == null) {
                in.skipValue();
            } else if (field == Field.IDENTITY || field == Field.CRC) {
                readChecksum(field, in, identity);
            } else if (lean) {
                readForIndex(field, w, in, b);
            } else if (!(summary && skippedInSummary(field, in, b))) {
                derivedAttemptId |= readField(field, w, in, b);
            }
        }
        if (b != null && derivedAttemptId) {
            b.deriveAttemptId();
        }
        return b == null ? null : b.build();
    }

    /** A record that starts with {@code head}: its type, kind, outcome, effect and attempt in one number. */
    private static JournalRecord.Builder startFromHead(long head, boolean lean) {
        RecordType type = Codes.type((int) (head & 7));
        if (type == null || head < 0 || head >>> HEAD_ATTEMPT >= HEAD_ATTEMPTS) {
            return null;
        }
        JournalRecord.Builder b = JournalRecord.of(type).pid(0).thread(null);
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
        return b.attempt((int) (head >>> HEAD_ATTEMPT));
    }

    /** A record that starts with its {@code type} field, as a code or (older journals) as its word. */
    private static JournalRecord.Builder startFromType(WireIn w, ValueIn in, Field field) {
        if (field != Field.TYPE) {
            return null;
        }
        RecordType type = isCode(w) ? Codes.type(in.int32()) : RecordType.ofWord(in.text()).orElse(null);
        return type == null ? null : JournalRecord.of(type).pid(0).thread(null);
    }

    /** The checksum fields are checked on the bytes, not decoded; a damaged record's identity is kept to compare. */
    private static void readChecksum(Field field, ValueIn in, int[] identity) {
        if (identity != null && field == Field.IDENTITY) {
            identity[0] = 1;
            identity[1] = in.int32();
        } else {
            in.skipValue();
        }
    }

    /** What the intent index reads of a field; every other field is skipped undecoded. */
    private static void readForIndex(Field field, WireIn w, ValueIn in, JournalRecord.Builder b) {
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
    }

    /** Skips the bulky free text a summary leaves out (a result as present but empty); false for any other field. */
    private static boolean skippedInSummary(Field field, ValueIn in, JournalRecord.Builder b) {
        switch (field) {
            case ARGS, MESSAGE, THREAD -> {
                in.skipValue();
                return true;
            }
            case RESULT -> {
                in.skipValue();
                b.result("");
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** Decodes one field into the builder; true when it is the mark of a derived attempt id. */
    private static boolean readField(Field field, WireIn w, ValueIn in, JournalRecord.Builder b) {
        switch (field) {
            case TASK -> b.task(in.text());
            case ACTOR -> b.actor(in.text());
            case CALL -> b.call(in.text());
            case KIND -> b.kind(isCode(w) ? Codes.kind(in.int32()) : Kind.fromWord(in.text()));
            case INTENT_KEY -> b.intentKey(key(w, in));
            case ATTEMPT -> b.attempt(in.int32());
            case ATTEMPT_ID -> {
                if (w.bytes().peekUnsignedByte() == BinaryWireCode.TRUE) {
                    in.skipValue();
                    return true;
                }
                b.attemptId(in.text());
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
        return false;
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
}

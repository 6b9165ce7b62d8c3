package dev.effectful.runtime.journal;

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
 */
public final class RecordCodec {

    /** The journal's fields: wire id, and the name used in exports and in older journals. */
    enum Field {
        TYPE(1, "type"), TASK(2, "task"), ACTOR(3, "actor"), CALL(4, "call"), KIND(5, "kind"),
        INTENT_KEY(6, "intent_key"), ATTEMPT(7, "attempt"), ATTEMPT_ID(8, "attempt_id"), STARTED(9, "started"),
        BUDGET_LEFT_S(10, "budget_left_s"), ARGS(11, "args"), OUTCOME(12, "outcome"),
        EFFECT_APPLIED(13, "effect_applied"), RETRY_AFTER_S(14, "retry_after_s"),
        DEADLINE_LEFT_S(15, "deadline_left_s"), MESSAGE(16, "message"), RESULT(17, "result"), PROBE(18, "probe"),
        PID(19, "pid"), THREAD(20, "thread"), DURATION_MS(21, "duration_ms"), ITEM(22, "item");

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

    public static void write(JournalRecord r, WireOut w) {
        w.writeEventId(Field.TYPE.id).text(r.type().word());
        text(w, Field.TASK, r.task());
        text(w, Field.ACTOR, r.actor());
        text(w, Field.CALL, r.call());
        text(w, Field.KIND, r.kind());
        text(w, Field.INTENT_KEY, r.intentKey());
        if (r.attempt() != 0) {
            w.writeEventId(Field.ATTEMPT.id).int32(r.attempt());
        }
        text(w, Field.ATTEMPT_ID, r.attemptId());
        w.writeEventId(Field.STARTED.id).int64(r.started());
        number(w, Field.BUDGET_LEFT_S, r.budgetLeftS());
        text(w, Field.ARGS, r.args());
        text(w, Field.OUTCOME, r.outcome());
        text(w, Field.EFFECT_APPLIED, r.effectApplied());
        number(w, Field.RETRY_AFTER_S, r.retryAfterS());
        number(w, Field.DEADLINE_LEFT_S, r.deadlineLeftS());
        text(w, Field.MESSAGE, r.message());
        text(w, Field.RESULT, r.result());
        text(w, Field.PROBE, r.probe());
        w.writeEventId(Field.PID.id).int64(r.pid());
        text(w, Field.THREAD, r.thread());
        number(w, Field.DURATION_MS, r.durationMs());
        text(w, Field.ITEM, r.item());
    }

    /** Null when the document is not a record of ours (no known type). */
    public static JournalRecord read(WireIn w) {
        return read(w, false);
    }

    /**
     * Only what the intent index needs (type, key, attempt, times, outcome, effect, retry-after,
     * probe, and whether a result is stored, as an empty {@code result}); the rest is skipped
     * undecoded. Rebuilding the index reads every record at start, so this is most of its cost.
     */
    public static JournalRecord readForIndex(WireIn w) {
        return read(w, true, false);
    }

    /**
     * Everything but the bulky free text ({@code args}, {@code result} (present as empty),
     * {@code message}, {@code thread}): what a summary of a large journal needs, decoded fast.
     */
    public static JournalRecord readSummary(WireIn w) {
        return read(w, false, true);
    }

    private static JournalRecord read(WireIn w, boolean lean) {
        return read(w, lean, false);
    }

    private static JournalRecord read(WireIn w, boolean lean, boolean summary) {
        StringBuilder name = new StringBuilder(16);
        JournalRecord.Builder b = null;
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
                if (field != Field.TYPE) {
                    return null;
                }
                RecordType type = RecordType.ofWord(in.text()).orElse(null);
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
            if (lean) {
                switch (field) {
                    case INTENT_KEY -> b.intentKey(in.text());
                    case ATTEMPT -> b.attempt(in.int32());
                    case STARTED -> b.started(in.int64());
                    case OUTCOME -> b.outcome(in.text());
                    case EFFECT_APPLIED -> b.effectApplied(in.text());
                    case RETRY_AFTER_S -> b.retryAfterS(in.int64());
                    case PROBE -> b.probe(in.text());
                    case DURATION_MS -> b.durationMs(in.int64());
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
                case TASK -> b.task(in.text());
                case ACTOR -> b.actor(in.text());
                case CALL -> b.call(in.text());
                case KIND -> b.kind(in.text());
                case INTENT_KEY -> b.intentKey(in.text());
                case ATTEMPT -> b.attempt(in.int32());
                case ATTEMPT_ID -> b.attemptId(in.text());
                case STARTED -> b.started(in.int64());
                case BUDGET_LEFT_S -> b.budgetLeftS(in.int64());
                case ARGS -> b.args(in.text());
                case OUTCOME -> b.outcome(in.text());
                case EFFECT_APPLIED -> b.effectApplied(in.text());
                case RETRY_AFTER_S -> b.retryAfterS(in.int64());
                case DEADLINE_LEFT_S -> b.deadlineLeftS(in.int64());
                case MESSAGE -> b.message(in.text());
                case RESULT -> b.result(in.text());
                case PROBE -> b.probe(in.text());
                case PID -> b.pid(in.int64());
                case THREAD -> b.thread(in.text());
                case DURATION_MS -> b.durationMs(in.int64());
                case ITEM -> b.item(in.text());
                default -> in.skipValue();
            }
        }
        return b == null ? null : b.build();
    }

    private static void text(WireOut w, Field field, String value) {
        if (value != null) {
            w.writeEventId(field.id).text(value);
        }
    }

    private static void number(WireOut w, Field field, Long value) {
        if (value != null) {
            w.writeEventId(field.id).int64(value);
        }
    }
}

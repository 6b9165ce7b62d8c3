package dev.effectful.runtime.journal;

import net.openhft.chronicle.wire.ValueIn;
import net.openhft.chronicle.wire.WireIn;
import net.openhft.chronicle.wire.WireOut;

/**
 * Writes and reads a {@link JournalRecord} as named wire fields. Reading is by field name with no
 * type information taken from the data, so a damaged or foreign record can never make the reader
 * instantiate a class (no polymorphic deserialization); unknown fields are skipped.
 */
public final class RecordCodec {

    private RecordCodec() {
    }

    public static void write(JournalRecord r, WireOut w) {
        w.write("type").text(r.type().word());
        text(w, "task", r.task());
        text(w, "actor", r.actor());
        text(w, "call", r.call());
        text(w, "kind", r.kind());
        text(w, "intent_key", r.intentKey());
        if (r.attempt() != 0) {
            w.write("attempt").int32(r.attempt());
        }
        text(w, "attempt_id", r.attemptId());
        w.write("started").int64(r.started());
        number(w, "budget_left_s", r.budgetLeftS());
        text(w, "args", r.args());
        text(w, "outcome", r.outcome());
        text(w, "effect_applied", r.effectApplied());
        number(w, "retry_after_s", r.retryAfterS());
        number(w, "deadline_left_s", r.deadlineLeftS());
        text(w, "message", r.message());
        text(w, "result", r.result());
        text(w, "probe", r.probe());
        w.write("pid").int64(r.pid());
        text(w, "thread", r.thread());
        number(w, "duration_ms", r.durationMs());
        text(w, "item", r.item());
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
        RecordType type = null;
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
            ValueIn in = w.readEventName(name);
            String field = name.toString();
            if (b == null) {
                if (!"type".equals(field)) {
                    return null;
                }
                type = RecordType.ofWord(in.text()).orElse(null);
                if (type == null) {
                    return null;
                }
                b = JournalRecord.of(type).pid(0).thread(null);
                continue;
            }
            if (lean) {
                switch (field) {
                    case "intent_key" -> b.intentKey(in.text());
                    case "attempt" -> b.attempt(in.int32());
                    case "started" -> b.started(in.int64());
                    case "outcome" -> b.outcome(in.text());
                    case "effect_applied" -> b.effectApplied(in.text());
                    case "retry_after_s" -> b.retryAfterS(in.int64());
                    case "probe" -> b.probe(in.text());
                    case "duration_ms" -> b.durationMs(in.int64());
                    case "result" -> {
                        in.skipValue();
                        b.result("");
                    }
                    default -> in.skipValue();
                }
                continue;
            }
            if (summary) {
                switch (field) {
                    case "args", "message", "thread" -> {
                        in.skipValue();
                        continue;
                    }
                    case "result" -> {
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
                case "task" -> b.task(in.text());
                case "actor" -> b.actor(in.text());
                case "call" -> b.call(in.text());
                case "kind" -> b.kind(in.text());
                case "intent_key" -> b.intentKey(in.text());
                case "attempt" -> b.attempt(in.int32());
                case "attempt_id" -> b.attemptId(in.text());
                case "started" -> b.started(in.int64());
                case "budget_left_s" -> b.budgetLeftS(in.int64());
                case "args" -> b.args(in.text());
                case "outcome" -> b.outcome(in.text());
                case "effect_applied" -> b.effectApplied(in.text());
                case "retry_after_s" -> b.retryAfterS(in.int64());
                case "deadline_left_s" -> b.deadlineLeftS(in.int64());
                case "message" -> b.message(in.text());
                case "result" -> b.result(in.text());
                case "probe" -> b.probe(in.text());
                case "pid" -> b.pid(in.int64());
                case "thread" -> b.thread(in.text());
                case "duration_ms" -> b.durationMs(in.int64());
                case "item" -> b.item(in.text());
                default -> in.skipValue();
            }
        }
        return b == null ? null : b.build();
    }

    private static void text(WireOut w, String field, String value) {
        if (value != null) {
            w.write(field).text(value);
        }
    }

    private static void number(WireOut w, String field, Long value) {
        if (value != null) {
            w.write(field).int64(value);
        }
    }
}

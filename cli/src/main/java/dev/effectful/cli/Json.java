package dev.effectful.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.core.journal.JournalRecord;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.util.regex.Pattern;

/**
 * JSON output: one document per line. {@code args} and {@code result} are stored as JSON text and
 * embedded as JSON values, so {@code jq .args.to} works; text that does not parse (damage, an old
 * writer) is embedded as a string rather than dropped.
 */
final class Json {
    // a damaged record must not make the parser build something enormous or nest without end
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(200).build())
            .build();
    private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

    private Json() {
    }

    /** Writes one object with the given filler and returns it as a single line. */
    static String line(Filler filler) {
        StringWriter sw = new StringWriter(256);
        try (JsonGenerator g = FACTORY.createGenerator(sw)) {
            g.writeStartObject();
            filler.fill(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sw.toString();
    }

    @FunctionalInterface
    interface Filler {
        void fill(JsonGenerator g) throws IOException;
    }

    /** A record with the contract's field names, absent fields omitted. */
    static String record(JournalRecord r, ZoneId zone) {
        return line(g -> writeRecordFields(g, r, zone));
    }

    /** The word on disk of a closed field, as exports have always shown it. */
    private static String word(Enum<?> e) {
        return e == null ? null : e.name().toLowerCase(java.util.Locale.ROOT);
    }

    static void writeRecordFields(JsonGenerator g, JournalRecord r, ZoneId zone) throws IOException {
        g.writeStringField("type", r.type().word());
        str(g, "task", r.task());
        str(g, "actor", r.actor());
        str(g, "call", r.call());
        str(g, "kind", word(r.kind()));
        str(g, "intent_key", r.intentKey());
        if (r.attempt() != 0) {
            g.writeNumberField("attempt", r.attempt());
        }
        str(g, "attempt_id", r.attemptId());
        if (r.started() > 0) {
            g.writeStringField("started", Times.iso(r.started(), zone));
        }
        num(g, "budget_left_s", r.budgetLeftS());
        embedded(g, "args", r.args());
        str(g, "outcome", word(r.outcome()));
        str(g, "effect_applied", word(r.effectApplied()));
        num(g, "retry_after_s", r.retryAfterS());
        num(g, "deadline_left_s", r.deadlineLeftS());
        str(g, "message", r.message());
        embedded(g, "result", r.result());
        str(g, "probe", word(r.probe()));
        if (r.pid() != 0) {
            g.writeNumberField("pid", r.pid());
        }
        str(g, "thread", r.thread());
        num(g, "duration_ms", r.durationMs());
        str(g, "item", r.item());
        str(g, "header", r.header());
        str(g, "verdict", r.verdict());
        str(g, "by", r.by());
        str(g, "note", r.note());
        str(g, "via", r.via());
    }

    /**
     * The fields that name an intent, first in every intent list's JSON: task, actor, call and kind (each
     * left out when null), then the intent key.
     */
    static void intent(JsonGenerator g, String task, String actor, String call, String kind, String key) throws IOException {
        str(g, "task", task);
        str(g, "actor", actor);
        str(g, "call", call);
        str(g, "kind", kind);
        g.writeStringField("intent_key", key);
    }

    /** {@link #intent(JsonGenerator, String, String, String, String, String)} for an intent of the local journal. */
    static void intent(JsonGenerator g, JournalIntents.Intent i) throws IOException {
        intent(g, i.task(), i.actor(), i.call(), i.kind(), i.key());
    }

    /** When something began ({@code field}, ISO-8601 in {@code zone}) and how long ago, in whole seconds ({@code age_s}). */
    static void since(JsonGenerator g, String field, long atMillis, long nowMillis, ZoneId zone) throws IOException {
        g.writeStringField(field, Times.iso(atMillis, zone));
        g.writeNumberField("age_s", Math.max(0, (nowMillis - atMillis) / 1000));
    }

    static void str(JsonGenerator g, String field, String value) throws IOException {
        if (value != null) {
            g.writeStringField(field, value);
        }
    }

    static void num(JsonGenerator g, String field, Long value) throws IOException {
        if (value != null) {
            g.writeNumberField(field, value);
        }
    }

    /** JSON text written as a JSON value; unparseable text as a plain string. */
    static void embedded(JsonGenerator g, String field, String jsonText) throws IOException {
        if (jsonText == null) {
            return;
        }
        g.writeFieldName(field);
        JsonNode node = parse(jsonText);
        if (node == null) {
            g.writeString(jsonText);
        } else {
            MAPPER.writeTree(g, node);
        }
    }

    static JsonNode parse(String jsonText) {
        try (JsonParser p = FACTORY.createParser(jsonText)) {
            JsonNode node = MAPPER.readTree(p);
            // trailing garbage means this is not the JSON the engine wrote
            return node != null && p.nextToken() == null ? node : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Runs of line breaks and tabs, which would break a table's row. */
    private static final Pattern LINE_BREAKS = Pattern.compile("[\\r\\n\\t]+");

    // a listing compacts one value per row, most of them without any: the check is a scan, the regex is not
    private static boolean hasLineBreakOrTab(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n' || c == '\t') {
                return true;
            }
        }
        return false;
    }

    /** Compact text of stored JSON for a table cell, cut to {@code max} characters. */
    static String compact(String jsonText, int max) {
        if (jsonText == null) {
            return "-";
        }
        String s = hasLineBreakOrTab(jsonText) ? LINE_BREAKS.matcher(jsonText).replaceAll(" ") : jsonText;
        return s.length() <= max ? s : s.substring(0, Math.max(0, max - 1)) + "…";
    }
}

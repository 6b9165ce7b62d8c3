package dev.effectful.runtime.engine;

import dev.effectful.Outcome;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.keys.Fingerprinter;
import dev.effectful.runtime.values.ParamSpec;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The {@code @Redact} rule for every text a call produces besides its arguments: journal fields,
 * the outcome handed to the caller and the model, the causes attached to it. Built once per call
 * from that call's redacted arguments; a tool without {@code @Redact} parameters gets {@link #NONE},
 * which changes nothing and costs nothing.
 *
 * <p>What is looked for: each redacted argument's {@code toString()}; for a Collection, an array
 * or a Map, each element's (each value's) instead; a {@code char[]} as the text it spells; an
 * Optional's content. Each such text is also looked for JSON-escaped and with its whitespace
 * collapsed (one-line messages collapse it). A text shorter than {@value #MIN_CHARS} characters is
 * not looked for: replacing every "7" in a message would make it unreadable and a secret that
 * short can be guessed anyway; it is still fingerprinted in the journal's {@code args}.
 * Each occurrence is replaced by the keyed fingerprint of that value, the same {@code hmac:} text
 * the journal's {@code args} show, so a person can tell which argument a message was quoting.
 */
public final class Redactor implements UnaryOperator<String> {

    /** Texts shorter than this are not searched for (see the class comment). */
    public static final int MIN_CHARS = 3;

    /** The marker a stored result is wrapped in when it held a redacted value: it is never replayed. */
    static final String HELD_MARKER = "{\"$redacted\":";

    /** Nothing to redact. */
    public static final Redactor NONE = new Redactor(List.of());

    private static final int MAX_CAUSES = 16;
    private static final int FINGERPRINT_HEX = 32;
    private static final String FINGERPRINT_PREFIX = "hmac:";

    /** Longest first, so a secret containing another secret is replaced whole. */
    private final List<Needle> needles;

    private record Needle(String text, String fingerprint) {
    }

    private Redactor(List<Needle> needles) {
        this.needles = needles;
    }

    /** The redactor for one call: {@link #NONE} unless a {@code @Redact} argument has searchable text. */
    public static Redactor of(Fingerprinter fingerprinter, Object[] args, ParamSpec[] specs) {
        if (args == null || specs == null) {
            return NONE;
        }
        Map<String, String> found = null;
        for (int i = 0; i < args.length && i < specs.length; i++) {
            if (specs[i] != null && specs[i].redact() && args[i] != null) {
                if (found == null) {
                    found = new LinkedHashMap<>();
                }
                collect(fingerprinter, args[i], true, found);
            }
        }
        if (found == null || found.isEmpty()) {
            return NONE;
        }
        List<Needle> list = new ArrayList<>(found.size());
        found.forEach((text, fp) -> list.add(new Needle(text, fp)));
        list.sort(Comparator.comparingInt((Needle n) -> n.text().length()).reversed());
        return new Redactor(List.copyOf(list));
    }

    private static void collect(Fingerprinter fp, Object value, boolean top, Map<String, String> into) {
        if (value == null) {
            return;
        }
        if (value instanceof char[] chars) {
            add(fp, value, new String(chars), into);
        } else if (top && value instanceof Collection<?> c) {
            for (Object e : c) {
                collect(fp, e, false, into);
            }
        } else if (top && value instanceof Map<?, ?> m) {
            for (Object e : m.values()) {
                collect(fp, e, false, into);
            }
        } else if (top && value instanceof Optional<?> o) {
            o.ifPresent(e -> collect(fp, e, false, into));
        } else if (top && value.getClass().isArray()) {
            for (int i = 0, n = Array.getLength(value); i < n; i++) {
                collect(fp, Array.get(value, i), false, into);
            }
        } else {
            String text;
            try {
                text = String.valueOf(value);
            } catch (RuntimeException brokenToString) {
                return; // nothing it could print, nothing to find
            }
            add(fp, value, text, into);
        }
    }

    private static void add(Fingerprinter fp, Object value, String text, Map<String, String> into) {
        if (text == null || text.length() < MIN_CHARS) {
            return;
        }
        String fingerprint;
        try {
            fingerprint = fp.fingerprint(value);
        } catch (RuntimeException e) {
            fingerprint = fp.fingerprint(text);
        }
        into.putIfAbsent(text, fingerprint);
        for (String variant : List.of(collapse(text), escapeJson(text))) {
            if (variant.length() >= MIN_CHARS) {
                into.putIfAbsent(variant, fingerprint);
            }
        }
    }

    /** Whether this redactor replaces anything at all; false for {@link #NONE}. */
    public boolean active() {
        return !needles.isEmpty();
    }

    @Override
    public String apply(String text) {
        return text(text);
    }

    /** {@code text} with every secret replaced by its fingerprint; the same instance when none occurs. */
    public String text(String text) {
        if (text == null || needles.isEmpty()) {
            return text;
        }
        StringBuilder out = null;
        int copiedTo = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            int fp = fingerprintEnd(text, i);
            if (fp > 0) {
                i = fp; // an existing fingerprint is never rewritten, even if a short secret occurs in its hex
                continue;
            }
            Needle hit = null;
            for (Needle needle : needles) {
                if (text.startsWith(needle.text(), i)) {
                    hit = needle;
                    break;
                }
            }
            if (hit == null) {
                i++;
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 48);
            }
            out.append(text, copiedTo, i).append(hit.fingerprint());
            i += hit.text().length();
            copiedTo = i;
        }
        if (out == null) {
            return text;
        }
        return out.append(text, copiedTo, n).toString();
    }

    private static int fingerprintEnd(String text, int at) {
        if (!text.startsWith(FINGERPRINT_PREFIX, at)) {
            return -1;
        }
        int end = at + FINGERPRINT_PREFIX.length() + FINGERPRINT_HEX;
        if (end > text.length()) {
            return -1;
        }
        for (int j = at + FINGERPRINT_PREFIX.length(); j < end; j++) {
            char c = text.charAt(j);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return -1;
            }
        }
        return end;
    }

    /**
     * JSON with every secret inside its strings, field names and numbers replaced, still valid
     * JSON; the same instance when none occurs. Text that does not parse is treated as text.
     */
    public String json(String json) {
        if (json == null || needles.isEmpty()) {
            return json;
        }
        return RedactedJson.of(json, this);
    }

    /**
     * A result to store: unchanged when it holds no secret; otherwise its redacted JSON wrapped in
     * {@value #HELD_MARKER}...{@code }}, which a repeat recognises ({@link #heldSecret}) and never
     * hands back as if it were the original value.
     */
    public String result(String json) {
        String redacted = json(json);
        if (redacted == null || redacted.equals(json)) {
            return json;
        }
        return HELD_MARKER + redacted + "}";
    }

    /** Whether a stored result was redacted when it was written (so it is not the original value). */
    public static boolean heldSecret(String storedResult) {
        return storedResult != null && storedResult.startsWith(HELD_MARKER);
    }

    /** The record with its message, result, probe and args redacted; the same record when nothing changed. */
    public JournalRecord record(JournalRecord r) {
        if (needles.isEmpty()) {
            return r;
        }
        String message = text(r.message());
        String result = result(r.result());
        String args = json(r.args());
        if (message == r.message() && result == r.result() && args == r.args()) {
            return r;
        }
        return new JournalRecord(r.type(), r.task(), r.actor(), r.call(), r.kind(), r.intentKey(), r.attempt(),
                r.attemptId(), r.started(), r.budgetLeftS(), args, r.outcome(), r.effectApplied(), r.retryAfterS(),
                r.deadlineLeftS(), message, result, r.probe(), r.pid(), r.thread(), r.durationMs(), r.item(), r.reentry(), r.header());
    }

    /** The outcome with its message and items' reasons redacted; its value is the caller's own and untouched. */
    public <T> Outcome<T> outcome(Outcome<T> o) {
        if (needles.isEmpty() || o == null) {
            return o;
        }
        String message = text(o.message());
        boolean changed = message != o.message();
        List<Outcome.Item> items = o.items();
        if (!items.isEmpty()) {
            List<Outcome.Item> copy = new ArrayList<>(items.size());
            for (Outcome.Item i : items) {
                String reason = text(i.reason());
                String id = text(i.id());
                changed |= reason != i.reason() || id != i.id();
                copy.add(reason == i.reason() && id == i.id() ? i : new Outcome.Item(id, i.applied(), reason, i.status()));
            }
            items = copy;
        }
        if (!changed) {
            return o;
        }
        return new Outcome<>(o.status(), o.effectApplied(), o.attemptId(), o.intentKey(), o.retryAfterS(),
                o.deadlineLeftS(), message, o.value(), items);
    }

    /**
     * {@code t} itself when no message in its cause chain quotes a secret; otherwise a copy of the
     * chain whose links keep their class names (in {@code toString()}) and stack traces but carry
     * redacted messages, so a caller that logs the cause logs no secret.
     */
    public Throwable throwable(Throwable t) {
        if (t == null || needles.isEmpty()) {
            return t;
        }
        List<Throwable> chain = new ArrayList<>();
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        boolean quotes = false;
        for (Throwable cur = t; cur != null && chain.size() < MAX_CAUSES && seen.put(cur, Boolean.TRUE) == null;
             cur = cur.getCause()) {
            chain.add(cur);
            String m = messageOf(cur);
            quotes |= m != null && !m.equals(text(m));
        }
        if (!quotes) {
            return t;
        }
        Throwable copy = null;
        for (int i = chain.size() - 1; i >= 0; i--) {
            Throwable link = chain.get(i);
            copy = new RedactedThrowable(link.getClass().getName(), text(messageOf(link)), copy, link.getStackTrace());
        }
        return copy;
    }

    private static String messageOf(Throwable t) {
        try {
            return t.getMessage();
        } catch (RuntimeException broken) {
            return null;
        }
    }

    private static String collapse(String s) {
        return s.trim().replaceAll("[\\s\\p{Cntrl}]+", " ");
    }

    private static String escapeJson(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /**
     * A link of a redacted cause chain: prints as the original class with the redacted message
     * ({@code java.lang.IllegalArgumentException: token hmac:... rejected}) and keeps its stack trace.
     */
    static final class RedactedThrowable extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String originalClass;

        RedactedThrowable(String originalClass, String message, Throwable cause, StackTraceElement[] trace) {
            super(message, cause, false, true);
            this.originalClass = originalClass;
            setStackTrace(trace);
        }

        @Override
        public String toString() {
            String m = getLocalizedMessage();
            return m == null ? originalClass : originalClass + ": " + m;
        }
    }
}

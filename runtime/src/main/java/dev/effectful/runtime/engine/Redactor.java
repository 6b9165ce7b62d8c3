package dev.effectful.runtime.engine;

import dev.effectful.Outcome;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.values.ParamSpec;

import dev.effectful.core.json.JsonText;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The {@code @Redact} rule for every text a call produces besides its arguments: journal fields,
 * the outcome handed to the caller and the model, the causes attached to it. Built once per call
 * from that call's redacted arguments; a tool without {@code @Redact} parameters gets {@link #NONE},
 * which changes nothing and costs nothing.
 *
 * <p>What is looked for, for each redacted argument: its {@code toString()}; for a Collection, an
 * array or a Map, each element's (each value's), at any depth; an Optional's content; a
 * {@code char[]} as the text it spells; a {@code byte[]} or {@code ByteBuffer} as its UTF-8 text;
 * for a record, each component too, and for any other object of the application, each property
 * of its JSON view (a component or property that is a boolean or an enum constant is not a
 * secret). Each such text is also looked for JSON-escaped (by {@link JsonText}, the journal's one
 * escaper) and with its whitespace collapsed, and its UTF-8 bytes as Base64 (standard and URL
 * alphabet, at each of the three alignments it can have inside a longer Base64 text) and as hex:
 * a secret returned as bytes is written as Base64 by Jackson (up to {@value #MAX_ENCODED_BYTES}
 * bytes: a longer value is looked for as text only). A text shorter than
 * {@value #MIN_CHARS} characters is not looked for (replacing every "7" in a message would make it
 * unreadable and a secret that short can be guessed anyway; it is still fingerprinted in the
 * journal's {@code args}), nor an encoded form shorter than {@value #MIN_ENCODED_CHARS}.
 * Each occurrence is replaced by the keyed fingerprint of that value, the same {@code hmac:} text
 * the journal's {@code args} show, so a person can tell which argument a message was quoting.
 */
public final class Redactor implements UnaryOperator<String> {

    /** Texts shorter than this are not searched for (see the class comment). */
    public static final int MIN_CHARS = 3;

    /** Base64 and hex forms shorter than this are not searched for: they would match by chance. */
    public static final int MIN_ENCODED_CHARS = 6;

    /** A value longer than this many UTF-8 bytes is looked for as text only, not as Base64 or hex. */
    public static final int MAX_ENCODED_BYTES = 16 * 1024;

    /** The marker a stored result is wrapped in when it held a redacted value: it is never replayed. */
    static final String HELD_MARKER = "{\"$redacted\":";

    /** Nothing to redact. */
    public static final Redactor NONE = new Redactor(List.of());

    /** Links of a cause graph (causes and suppressed) checked; a longer one is cut in the copy the caller gets. */
    static final int MAX_LINKS = 1024;
    /** How deep nested collections, records and their components are searched for secrets. */
    private static final int MAX_DEPTH = 16;
    /** Properties of one bean's JSON view taken as secrets, at most. */
    static final int MAX_PROPERTIES = 4096;
    private static final int FINGERPRINT_HEX = 32;
    private static final String FINGERPRINT_PREFIX = "hmac:";
    private static final List<Base64.Encoder> BASE64 = List.of(Base64.getEncoder(), Base64.getUrlEncoder());

    /** Longest first, so a secret containing another secret is replaced whole. */
    private final List<Needle> needles;
    /** The first characters of the needles: most positions of a text start none of them. */
    private final BitSet firsts = new BitSet();

    private record Needle(String text, String fingerprint) {
    }

    private Redactor(List<Needle> needles) {
        this.needles = needles;
        for (Needle n : needles) {
            firsts.set(n.text().charAt(0));
        }
    }

    /** The redactor for one call: {@link #NONE} unless a {@code @Redact} argument has searchable text. */
    public static Redactor of(Fingerprinter fingerprinter, Object[] args, ParamSpec[] specs) {
        if (args == null || specs == null) {
            return NONE;
        }
        Secrets found = null;
        for (int i = 0; i < args.length && i < specs.length; i++) {
            if (specs[i] != null && specs[i].redact() && args[i] != null) {
                if (found == null) {
                    found = new Secrets(fingerprinter);
                }
                found.value(args[i], true, 0);
            }
        }
        if (found == null || found.texts.isEmpty()) {
            return NONE;
        }
        List<Needle> list = new ArrayList<>(found.texts.size());
        found.texts.forEach((text, fp) -> list.add(new Needle(text, fp)));
        list.sort(Comparator.comparingInt((Needle n) -> n.text().length()).reversed());
        return new Redactor(List.copyOf(list));
    }

    /** Every text a call's redacted values can be written as, each with the fingerprint that replaces it. */
    private static final class Secrets {
        private final Fingerprinter fp;
        private final Map<String, String> texts = new LinkedHashMap<>();
        /** Containers and records already searched: a cycle among them ends here. */
        private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());

        Secrets(Fingerprinter fp) {
            this.fp = fp;
        }

        /** {@code top}: the argument itself, which is a secret whatever its type; a part of one only when not trivial. */
        void value(Object value, boolean top, int depth) {
            if (value == null || depth > MAX_DEPTH) {
                return;
            }
            if (value instanceof CharSequence cs) {
                text(value, cs.toString());
            } else if (value instanceof char[] chars) {
                text(value, new String(chars));
            } else if (value instanceof byte[] bytes) {
                bytes(value, bytes);
            } else if (value instanceof ByteBuffer buffer) {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.duplicate().get(bytes); // the caller's position stays where it is
                bytes(value, bytes);
            } else if (value instanceof Boolean || value instanceof Enum<?>) {
                if (top) {
                    text(value, value.toString()); // the user marked it: a secret, however short its set
                }
            } else if (value instanceof Number || value instanceof Character) {
                text(value, value.toString());
            } else if (!seen.add(value)) {
                return;
            } else if (value instanceof Optional<?> o) {
                o.ifPresent(e -> value(e, top, depth + 1));
            } else if (value instanceof Collection<?> c) {
                for (Object e : c) {
                    value(e, false, depth + 1);
                }
            } else if (value instanceof Map<?, ?> m) {
                for (Object e : m.values()) {
                    value(e, false, depth + 1);
                }
            } else if (value.getClass().isArray()) {
                for (int i = 0, n = Array.getLength(value); i < n; i++) {
                    value(Array.get(value, i), false, depth + 1);
                }
            } else {
                printed(value);
                if (value.getClass().isRecord() && components(value, depth)) {
                    return;
                }
                if (!isPlatformType(value.getClass())) {
                    // a bean's properties, as its JSON view shows them: a message may quote any one of them
                    RedactedJson.properties(value, MAX_PROPERTIES, p -> value(p, false, depth + 1));
                }
            }
        }

        /** Each component of a record; false when they cannot be read (its JSON view is used then). */
        private boolean components(Object record, int depth) {
            try {
                for (RecordComponent c : record.getClass().getRecordComponents()) {
                    java.lang.reflect.Method accessor = c.getAccessor();
                    accessor.setAccessible(true);
                    value(accessor.invoke(record), false, depth + 1);
                }
                return true;
            } catch (ReflectiveOperationException | RuntimeException unreadable) {
                return false;
            }
        }

        private void printed(Object value) {
            String text;
            try {
                text = String.valueOf(value);
            } catch (RuntimeException brokenToString) {
                return; // nothing it could print, nothing to find
            }
            text(value, text);
        }

        private void text(Object value, String text) {
            if (text == null || text.length() < MIN_CHARS || text.isBlank()) {
                return;
            }
            String fingerprint = fingerprintOf(value, text);
            texts.putIfAbsent(text, fingerprint);
            for (String variant : List.of(collapse(text), JsonText.escaped(text))) {
                if (variant.length() >= MIN_CHARS) {
                    texts.putIfAbsent(variant, fingerprint);
                }
            }
            encoded(text.getBytes(StandardCharsets.UTF_8), fingerprint);
        }

        private void bytes(Object value, byte[] bytes) {
            String fingerprint = fingerprintOf(value, null);
            String decoded = new String(bytes, StandardCharsets.UTF_8);
            if (decoded.length() >= MIN_CHARS && !decoded.isBlank()) {
                texts.putIfAbsent(decoded, fingerprint);
                for (String variant : List.of(collapse(decoded), JsonText.escaped(decoded))) {
                    if (variant.length() >= MIN_CHARS) {
                        texts.putIfAbsent(variant, fingerprint);
                    }
                }
            }
            encoded(bytes, fingerprint);
        }

        /**
         * The bytes as Base64 and hex. Inside a longer Base64 text, bytes starting at an offset of 1
         * or 2 (mod 3) are written as other characters than alone; the characters that depend only
         * on them are looked for, for each of the three offsets.
         */
        private void encoded(byte[] bytes, String fingerprint) {
            if (bytes.length > MAX_ENCODED_BYTES) {
                return; // eight encodings of a document per call would cost more than the call
            }
            List<String> forms = new ArrayList<>(10);
            HexFormat hex = HexFormat.of();
            forms.add(hex.formatHex(bytes));
            forms.add(hex.formatHex(bytes).toUpperCase(Locale.ROOT));
            for (Base64.Encoder encoder : BASE64) {
                forms.add(encoder.encodeToString(bytes));
                for (int offset = 0; offset < 3; offset++) {
                    byte[] shifted = new byte[offset + bytes.length];
                    System.arraycopy(bytes, 0, shifted, offset, bytes.length);
                    String all = encoder.encodeToString(shifted);
                    int from = (8 * offset + 5) / 6; // the first character holding no bit of the filler
                    int to = 8 * (offset + bytes.length) / 6; // the last one holding no padding bit, exclusive
                    if (to > from) {
                        forms.add(all.substring(from, to));
                    }
                }
            }
            for (String form : forms) {
                if (form.length() >= MIN_ENCODED_CHARS) {
                    texts.putIfAbsent(form, fingerprint);
                }
            }
        }

        private String fingerprintOf(Object value, String text) {
            try {
                return fp.fingerprint(value);
            } catch (RuntimeException e) {
                return fp.fingerprint(text != null ? text : value.getClass().getName());
            }
        }
    }

    /** A JDK type: its {@code toString()} is all there is to look for (no JSON view worth taking apart). */
    private static boolean isPlatformType(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
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
            if (!firsts.get(text.charAt(i))) {
                i++;
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
     * The kept head of a value too long to journal whole: redacted, and cut before any secret it
     * ends with the start of (a secret that begins inside the head and goes on past its end is
     * not found whole, and its first characters must not stay behind).
     */
    public String head(String head) {
        if (head == null || needles.isEmpty()) {
            return head;
        }
        String redacted = text(head);
        int keep = redacted.length();
        for (Needle needle : needles) {
            String t = needle.text();
            for (int len = Math.min(t.length() - 1, redacted.length()); len > 0 && redacted.length() - len < keep; len--) {
                if (redacted.regionMatches(redacted.length() - len, t, 0, len)) {
                    keep = redacted.length() - len;
                    break;
                }
            }
        }
        return keep == redacted.length() ? redacted : redacted.substring(0, keep);
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
                r.deadlineLeftS(), message, result, r.probe(), r.pid(), r.thread(), r.durationMs(), r.item(), r.reentry(), r.header(), r.verdict(), r.by(), r.note(), r.via());
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
     * {@code t} itself when no link of it quotes a secret; otherwise a redacted copy. A link is the
     * thrown exception, any cause and any suppressed exception, at any depth (each once, so a cycle
     * ends); what is checked is what a log or {@code printStackTrace} prints of it: its
     * {@code toString()}, message and localized message. The copy keeps each link's class name (in
     * {@code toString()}), stack trace, causes and suppressed exceptions, with their texts redacted,
     * so a caller that logs the cause logs no secret. A graph of more than {@value #MAX_LINKS} links
     * is copied in any case, cut after that many: what was not checked is not handed out.
     */
    public Throwable throwable(Throwable t) {
        if (t == null || needles.isEmpty()) {
            return t;
        }
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        ArrayDeque<Throwable> todo = new ArrayDeque<>();
        todo.add(t);
        boolean copy = false;
        while (!todo.isEmpty() && !copy) {
            Throwable cur = todo.poll();
            if (!seen.add(cur)) {
                continue;
            }
            copy = seen.size() > MAX_LINKS || quotes(cur);
            linksOf(cur, todo);
        }
        return copy ? copyOf(t) : t;
    }

    /** {@link #throwable}, or when even that fails, the bare class name of {@code t}: never the original. */
    public Throwable throwableOrBare(Throwable t) {
        try {
            return throwable(t);
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            return new RedactedThrowable(null, t.getClass().getName(), new StackTraceElement[0]);
        }
    }

    /** Whether what is printed of {@code t} holds a secret; true when it cannot be read (so it is not handed out). */
    private boolean quotes(Throwable t) {
        try {
            String printed = t.toString();
            String message = t.getMessage();
            String localized = t.getLocalizedMessage();
            return printed != text(printed) || message != text(message) || localized != text(localized);
        } catch (RuntimeException | LinkageError unreadable) {
            return true;
        }
    }

    /** The cause (first) and suppressed exceptions of {@code t}; none when they cannot be read. */
    private static void linksOf(Throwable t, ArrayDeque<Throwable> into) {
        Throwable cause = causeOf(t);
        if (cause != null) {
            into.add(cause);
        }
        try {
            Collections.addAll(into, t.getSuppressed());
        } catch (RuntimeException unreadable) {
            // nothing further to follow
        }
    }

    private static Throwable causeOf(Throwable t) {
        try {
            return t.getCause();
        } catch (RuntimeException unreadable) {
            return null; // a getCause override that throws: nothing further to follow
        }
    }

    private Throwable copyOf(Throwable t) {
        // first a copy of each link (breadth first, the first MAX_LINKS), then their links: a cycle stays a cycle
        Map<Throwable, RedactedThrowable> copies = new IdentityHashMap<>();
        List<Throwable> order = new ArrayList<>();
        ArrayDeque<Throwable> todo = new ArrayDeque<>();
        todo.add(t);
        while (!todo.isEmpty() && copies.size() < MAX_LINKS) {
            Throwable cur = todo.poll();
            if (copies.containsKey(cur)) {
                continue;
            }
            copies.put(cur, redactedLink(cur));
            order.add(cur);
            linksOf(cur, todo);
        }
        for (Throwable original : order) {
            RedactedThrowable link = copies.get(original);
            Throwable cause = causeOf(original);
            if (cause != null) {
                RedactedThrowable c = copies.get(cause);
                link.initCause(c != null ? c : RedactedThrowable.cut());
            }
            ArrayDeque<Throwable> links = new ArrayDeque<>();
            linksOf(original, links);
            if (cause != null) {
                links.poll();
            }
            for (Throwable suppressed : links) {
                RedactedThrowable s = copies.get(suppressed);
                link.addSuppressed(s != null ? s : RedactedThrowable.cut());
            }
        }
        return copies.get(t);
    }

    private RedactedThrowable redactedLink(Throwable t) {
        String message = null;
        String printed = t.getClass().getName();
        try {
            message = text(t.getMessage());
            printed = text(t.toString());
        } catch (RuntimeException | LinkageError unreadable) {
            // only its class name is certain to hold no secret
        }
        StackTraceElement[] trace;
        try {
            trace = t.getStackTrace();
        } catch (RuntimeException unreadable) {
            trace = new StackTraceElement[0];
        }
        return new RedactedThrowable(message, printed, trace);
    }

    private static String collapse(String s) {
        return s.trim().replaceAll("[\\s\\p{Cntrl}]+", " ");
    }

    /**
     * A link of a redacted cause graph: prints as the original link did, with its secrets replaced
     * ({@code java.lang.IllegalArgumentException: token hmac:... rejected}), and keeps its stack trace.
     */
    static final class RedactedThrowable extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String printed;

        RedactedThrowable(String message, String printed, StackTraceElement[] trace) {
            super(message); // cause left unset: it is set once every link of the copy exists
            this.printed = printed;
            setStackTrace(trace);
        }

        /** Stands where a graph too long to check was cut. */
        static RedactedThrowable cut() {
            return new RedactedThrowable(null, "dev.effectful: further causes not shown (more than " + MAX_LINKS
                    + " links, too many to check for @Redact values)", new StackTraceElement[0]);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // the original's trace is set instead
        }

        @Override
        public String toString() {
            return printed;
        }
    }
}

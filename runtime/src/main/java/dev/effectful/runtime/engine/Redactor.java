package dev.effectful.runtime.engine;

import dev.effectful.Outcome;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.values.ParamSpec;

import dev.effectful.core.json.JsonText;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
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
 *
 * <p>The finding is {@link SecretDiscovery}'s and the cause graph's copy {@link ThrowableRedaction}'s; this
 * class replaces what was found in each kind of text: plain text, JSON, a kept head, a stored result, a
 * record, an outcome.
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
    /** Properties of one bean's JSON view taken as secrets, at most. */
    static final int MAX_PROPERTIES = 4096;
    private static final int FINGERPRINT_HEX = 32;
    private static final String FINGERPRINT_PREFIX = "hmac:";

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
        SecretDiscovery found = null;
        for (int i = 0; i < args.length && i < specs.length; i++) {
            if (specs[i] != null && specs[i].redact() && args[i] != null) {
                if (found == null) {
                    found = new SecretDiscovery(fingerprinter);
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
        return ThrowableRedaction.of(this, t);
    }

    /** {@link #throwable}, or when even that fails, the bare class name of {@code t}: never the original. */
    public Throwable throwableOrBare(Throwable t) {
        try {
            return throwable(t);
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            return new RedactedThrowable(null, t.getClass().getName(), new StackTraceElement[0]);
        }
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

package dev.effectful.runtime.engine;

import dev.effectful.runtime.engine.Redactor.RedactedThrowable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.effectful.runtime.engine.Redactor.MAX_LINKS;

/**
 * The redaction of a thrown exception and its cause graph ({@link Redactor#throwable}): which links quote a
 * secret, and the copy handed out instead, link for link. Apart from {@link Redactor} because walking a graph
 * that may be cyclic, long or unreadable has rules of its own that the text redactions do not need.
 */
final class ThrowableRedaction {

    private ThrowableRedaction() {
    }

    /** {@code t}, or its redacted copy when a link quotes a secret or the graph is too long to check. */
    static Throwable of(Redactor redactor, Throwable t) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        ArrayDeque<Throwable> todo = new ArrayDeque<>();
        todo.add(t);
        boolean copy = false;
        while (!todo.isEmpty() && !copy) {
            Throwable cur = todo.poll();
            if (!seen.add(cur)) {
                continue;
            }
            copy = seen.size() > MAX_LINKS || quotes(redactor, cur);
            linksOf(cur, todo);
        }
        return copy ? copyOf(redactor, t) : t;
    }

    /** Whether what is printed of {@code t} holds a secret; true when it cannot be read (so it is not handed out). */
    private static boolean quotes(Redactor redactor, Throwable t) {
        try {
            String printed = t.toString();
            String message = t.getMessage();
            String localized = t.getLocalizedMessage();
            return printed != redactor.text(printed) || message != redactor.text(message)
                    || localized != redactor.text(localized);
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

    private static Throwable copyOf(Redactor redactor, Throwable t) {
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
            copies.put(cur, redactedLink(redactor, cur));
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

    private static RedactedThrowable redactedLink(Redactor redactor, Throwable t) {
        String message = null;
        String printed = t.getClass().getName();
        try {
            message = redactor.text(t.getMessage());
            printed = redactor.text(t.toString());
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
}

package dev.effectful.agent.integration;

import java.math.BigInteger;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The task entry a remote call carries in its metadata under {@value #KEY}:
 * {@code {"id": "ord-7741", "actor": "alice", "budget_ms": 41200}}. Written by the caller's agent
 * ({@link #entryOf}), read by the callee's ({@link #parse}).
 *
 * <p>An entry from the wire is a claim, never a credential, and it is taken whole or not at all: a
 * field of the wrong type, an id or actor too long or holding control characters, a budget that is not
 * a positive whole number of milliseconds, or any key besides the three makes the whole entry
 * {@link Malformed}. Nothing of a malformed entry is used, and the reason never quotes it (it could be
 * anything, log lines included).
 */
public final class RemoteTasks {

    /** The metadata key. */
    public static final String KEY = "dev.effectful/task";
    /** Longest task id or actor accepted, in characters. */
    public static final int MAX_TEXT = 256;

    private static final Set<String> FIELDS = Set.of("id", "actor", "budget_ms");
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private RemoteTasks() {
    }

    /** A well-formed entry: the task the caller was in, and the budget it had left when it called. */
    public record Entry(String id, String actor, Duration budget) {
    }

    /** Why an entry was refused; the message names the defect, not the value. */
    public static final class Malformed extends Exception {
        Malformed(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The entry for a call made now in task {@code id}: its actor (omitted when none) and the budget left. */
    public static Map<String, Object> entryOf(String id, String actor, Duration remaining) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", id);
        if (actor != null && !actor.isEmpty()) {
            entry.put("actor", actor);
        }
        // a spent budget still goes as 1 ms: the callee then refuses by its floor instead of ignoring the entry
        entry.put("budget_ms", Math.max(1L, remaining.toMillis()));
        return entry;
    }

    /** Reads an entry as the transport's JSON decoder left it (maps, strings, numbers). */
    public static Entry parse(Object raw) throws Malformed {
        if (!(raw instanceof Map<?, ?> map)) {
            throw new Malformed("it is not an object");
        }
        for (Object k : map.keySet()) {
            if (!(k instanceof String s) || !FIELDS.contains(s)) {
                throw new Malformed("it has a field other than id, actor and budget_ms");
            }
        }
        String id = text(map.get("id"), "id", true);
        String actor = text(map.get("actor"), "actor", false);
        return new Entry(id, actor, Duration.ofMillis(budget(map.get("budget_ms"))));
    }

    private static String text(Object v, String field, boolean required) throws Malformed {
        if (v == null) {
            if (required) {
                throw new Malformed(field + " is missing");
            }
            return "";
        }
        if (!(v instanceof String s)) {
            throw new Malformed(field + " is not a string");
        }
        if (required && s.isBlank()) {
            throw new Malformed(field + " is blank");
        }
        if (s.length() > MAX_TEXT) {
            throw new Malformed(field + " is longer than " + MAX_TEXT + " characters");
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                throw new Malformed(field + " holds a control character");
            }
        }
        return s;
    }

    private static long budget(Object v) throws Malformed {
        long ms;
        if (v == null) {
            throw new Malformed("budget_ms is missing");
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            ms = ((Number) v).longValue();
        } else if (v instanceof BigInteger b) {
            if (b.signum() <= 0 || b.compareTo(LONG_MAX) > 0) {
                throw new Malformed("budget_ms is not a positive whole number of milliseconds");
            }
            ms = b.longValue();
        } else {
            throw new Malformed("budget_ms is not a whole number of milliseconds");
        }
        if (ms <= 0) {
            throw new Malformed("budget_ms is not positive");
        }
        return ms;
    }
}

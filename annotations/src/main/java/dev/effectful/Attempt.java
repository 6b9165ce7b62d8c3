package dev.effectful;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The attempt a tool body is running as. A keyable tool passes {@link #intentKey()} to a receiver
 * that deduplicates on it (an {@code Idempotency-Key} header), so a re-run after an unknown outcome
 * cannot apply twice.
 *
 * <!-- compile: statements -->
 * <pre>{@code
 * String key = Attempt.current().map(Attempt::intentKey).orElseThrow();
 * }</pre>
 *
 * @see EffectfulTool#keyable()
 */
public final class Attempt {

    private static final ThreadLocal<Attempt> CURRENT = new ThreadLocal<>();
    /** The batch item named by {@link #sending} on this thread, and the attempt that named it. */
    private static final ThreadLocal<Sending> SENDING = new ThreadLocal<>();

    private final String intentKey;
    private final int number;
    private final String attemptId;
    /** Items a batch body named as it went, by id; guarded by itself (a body may fan out to threads). */
    private final Map<String, Outcome.Item> reported = new LinkedHashMap<>();

    /**
     * An attempt; the agent makes one for every body it runs. Tests of tool classes may make
     * their own and bind it with {@link #makeCurrent()}.
     */
    public Attempt(String intentKey, int number, String attemptId) {
        this.intentKey = Objects.requireNonNull(intentKey, "intentKey");
        this.number = number;
        this.attemptId = Objects.requireNonNull(attemptId, "attemptId");
    }

    /** The attempt whose body is running on this thread, if any. */
    public static Optional<Attempt> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** The intent key: the same for every attempt of the same intent, in every process. */
    public String intentKey() {
        return intentKey;
    }

    /** 1 for the first attempt of the intent, n+1 for each re-run. */
    public int number() {
        return number;
    }

    /** Unique id of this attempt, as in the journal and in the outcome JSON. */
    public String attemptId() {
        return attemptId;
    }

    /**
     * Names what happened to one item of a batch tool as soon as the body knows it, so the item keeps
     * its truth even if the body throws later. Only the tool knows which items it sent: when a batch
     * body throws, every item it did not name here (or in the {@link Outcome} it returns or throws)
     * is unknown, whatever the exception, because the exception describes one request, not the
     * items sent before it.
     *
     * <!-- compile: statements | given: interface Row { String id(); } interface Http { static void post(Row r) { } } Row row; -->
     * <pre>{@code
     * Http.post(row);
     * Attempt.current().ifPresent(a -> a.report(Outcome.Item.applied(row.id())));
     * }</pre>
     *
     * A later report of the same id replaces an earlier one, and an item named in the {@code Outcome}
     * the body returns or throws wins over one reported here. Safe to call from any thread the body
     * hands this attempt to; tools that are not batch tools may call it, and nothing reads it.
     *
     * @param item what happened to the item ({@link Outcome.Item#applied}, {@link Outcome.Item#rejected},
     *             {@link Outcome.Item#retryable}, {@link Outcome.Item#unknown})
     */
    public void report(Outcome.Item item) {
        Objects.requireNonNull(item, "item");
        synchronized (reported) {
            reported.put(item.id(), item);
        }
    }

    /** The items named so far with {@link #report}, in the order first named; read by the agent at exit. */
    public List<Outcome.Item> reportedItems() {
        synchronized (reported) {
            return List.copyOf(new ArrayList<>(reported.values()));
        }
    }

    /**
     * Names the batch item the code on this thread sends until the scope is closed. Inside it,
     * {@link #requestKey()} is that item's own intent key (as the journal's item records show it), and
     * a tool with {@link EffectfulTool#keyHeader()} sends it in that header: a retry of the batch
     * that sends the same item again carries the same key, and another item never shares it.
     *
     * <!-- compile: statements | given: interface Row { String id(); } interface Http { static void post(Row r) { } } Row row; Attempt attempt; -->
     * <pre>{@code
     * try (Attempt.Scope sending = attempt.sending(row.id())) {
     *     Http.post(row);   // carries the row's key
     * }
     * }</pre>
     *
     * Scopes nest and restore what was named before; the item is named for this thread only.
     *
     * @param itemId the item's id, as its {@code @ItemKey} gives it
     */
    public Scope sending(String itemId) {
        Objects.requireNonNull(itemId, "itemId");
        Sending before = SENDING.get();
        SENDING.set(new Sending(this, itemId));
        return () -> {
            if (before == null) {
                SENDING.remove();
            } else {
                SENDING.set(before);
            }
        };
    }

    /**
     * The key a receiver should deduplicate the request being sent now on: inside {@link #sending} on
     * this thread, the named batch item's key; otherwise {@link #intentKey()}. For HTTP clients the agent
     * does not cover, set it as the {@code Idempotency-Key} (or the service's own header) yourself.
     */
    public String requestKey() {
        Sending s = SENDING.get();
        return s != null && s.attempt == this ? itemKey(intentKey, s.itemId) : intentKey;
    }

    /** An item's key: the journal's item records use the same derivation (checked by a runtime test). */
    private static String itemKey(String callKey, String itemId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((callKey + "|item|" + itemId).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private record Sending(Attempt attempt, String itemId) {
    }

    /** Binds this attempt to the current thread until the returned scope is closed. */
    public Scope makeCurrent() {
        Attempt before = CURRENT.get();
        CURRENT.set(this);
        return () -> {
            if (before == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(before);
            }
        };
    }

    @Override
    public String toString() {
        return "Attempt[" + attemptId + ", #" + number + "]";
    }

    /** Restores the attempt that was current before {@link #makeCurrent()}. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        /** Restores the previous attempt; never throws. */
        @Override
        void close();
    }
}

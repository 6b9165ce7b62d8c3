package dev.effectful;

import java.util.ArrayList;
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

package dev.effectful;

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

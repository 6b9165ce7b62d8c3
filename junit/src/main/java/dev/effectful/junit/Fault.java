package dev.effectful.junit;

import java.time.Duration;

/**
 * A failure the kit injects into the next effect request at a {@link FaultPoint}: where the user's
 * tool meets its receiver.
 */
public sealed interface Fault {

    /**
     * The receiver applies the effect, then the connection drops before any answer: the caller cannot
     * tell whether it landed. {@code afterEffect} runs between the two (the kit kills its process there).
     */
    record DropAfterEffect(Runnable afterEffect) implements Fault {
    }

    /** The receiver waits this long, then applies the effect and answers normally. */
    record Delay(Duration delay) implements Fault {
    }

    /** The receiver applies nothing and answers 429 with {@code Retry-After: seconds}. */
    record RateLimit(long retryAfterSeconds) implements Fault {
    }

    /** The receiver applies nothing and answers success whose body reports an error. */
    record ErrorAnswer() implements Fault {
    }
}

package dev.effectful.junit;

import java.net.SocketException;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Fault hooks for a user's own in-process fake receiver. The fake wraps the place where its effect
 * happens in {@link #around}; the kit then decides, per request, whether to apply it normally,
 * apply it and drop the connection, delay it, answer 429 with Retry-After, or answer success with
 * the fake's own error answer.
 *
 * <pre>{@code
 * String send(String to, String text) {
 *     return hooks.around(() -> { sent.add(text); return "msg-" + sent.size(); },
 *                         () -> "error: mailbox full");
 * }
 * }</pre>
 */
public final class FakeHooks extends ArmedFaultPoint {

    private volatile boolean errorAnswerSeen;
    private volatile LongFunction<? extends RuntimeException> rateLimited = FakeRateLimited::new;

    FakeHooks() {
    }

    /** Runs {@code effect} as the receiver would, with the fault the kit armed for this request, if any. */
    public <T> T around(Callable<T> effect) {
        return around(effect, null);
    }

    /**
     * Like {@link #around(Callable)}; {@code errorAnswer} is what this receiver returns when it
     * answers success with a failure inside (used for the "200 with an error body" check).
     */
    public <T> T around(Callable<T> effect, Supplier<T> errorAnswer) {
        serving.incrementAndGet();
        try {
            return serve(effect, errorAnswer);
        } finally {
            serving.decrementAndGet();
        }
    }

    /**
     * What the injected rate limit throws: by default {@link FakeRateLimited}; give your SDK's own 429
     * exception here so that the tool's main code catches what it catches in production, with no
     * dependency on the kit.
     *
     * <pre>{@code
     * hooks.rateLimitedAs(seconds -> new SdkException(429, seconds));
     * }</pre>
     */
    public FakeHooks rateLimitedAs(LongFunction<? extends RuntimeException> exception) {
        this.rateLimited = java.util.Objects.requireNonNull(exception, "exception");
        return this;
    }

    private <T> T serve(Callable<T> effect, Supplier<T> errorAnswer) {
        if (errorAnswer != null) {
            errorAnswerSeen = true;
        }
        Fault fault = effectRequest();
        if (fault instanceof Fault.RateLimit r) {
            throw rateLimited.apply(r.retryAfterSeconds());
        }
        if (fault instanceof Fault.ErrorAnswer && errorAnswer != null) {
            return errorAnswer.get();
        }
        if (fault instanceof Fault.Delay d) {
            try {
                TimeUnit.NANOSECONDS.sleep(d.delay().toNanos());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return sneaky(new SocketException("the caller gave up while the receiver was slow (interrupted)"));
            }
        }
        T result;
        try {
            result = effect.call();
        } catch (Exception e) {
            return sneaky(e);
        }
        if (fault instanceof Fault.DropAfterEffect drop) {
            drop.afterEffect().run();
            return sneaky(new SocketException("Connection reset: the receiver applied the effect, then the connection"
                    + " dropped (injected by the effectful kit)"));
        }
        return result;
    }

    @Override
    public boolean answersErrorsInSuccess() {
        return errorAnswerSeen;
    }

    @SuppressWarnings("unchecked")
    static <T, E extends Throwable> T sneaky(Throwable t) throws E {
        throw (E) t;
    }
}

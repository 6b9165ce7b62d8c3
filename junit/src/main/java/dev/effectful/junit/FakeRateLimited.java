package dev.effectful.junit;

/**
 * What {@link FakeHooks} throws when the kit injects a rate limit into a user's own fake: the fake's
 * stand-in for an SDK's "429 Too Many Requests" exception. The tool must turn it into a retryable
 * outcome carrying {@link #retryAfterSeconds()}, as it must do with the real SDK's exception.
 */
public final class FakeRateLimited extends RuntimeException {

    private final long retryAfterSeconds;

    FakeRateLimited(long retryAfterSeconds) {
        super("429 Too Many Requests; Retry-After: " + retryAfterSeconds + " (injected by the effectful kit)");
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int statusCode() {
        return 429;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}

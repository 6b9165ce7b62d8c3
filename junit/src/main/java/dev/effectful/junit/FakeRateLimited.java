package dev.effectful.junit;

/**
 * What {@link FakeHooks} throws when the kit injects a rate limit into a user's own fake: the fake's
 * stand-in for an SDK's "429 Too Many Requests" exception. The tool must turn it into a retryable
 * outcome carrying {@link #retryAfterSeconds()}, as it must do with the real SDK's exception. Public,
 * with a public constructor, so a fake (or a tool written against it) can throw and catch it; a tool
 * whose main code should not see the kit gets its SDK's own exception instead, through
 * {@link FakeHooks#rateLimitedAs}.
 */
public final class FakeRateLimited extends RuntimeException {

    private final long retryAfterSeconds;

    /** A 429 whose {@code Retry-After} is {@code retryAfterSeconds}. */
    public FakeRateLimited(long retryAfterSeconds) {
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

package dev.effectful.runtime.reentry;

/** What to do with a call whose intent key may already be known: the output of {@link ReentryRules}. */
public sealed interface Decision {

    /** Run the body as attempt {@code attempt}. */
    record Run(int attempt) implements Decision {
    }

    /** Answer with the stored ok result at {@code resultIndex} (-1: not stored); the body does not run. */
    record Replay(long resultIndex) implements Decision {
    }

    /** Run the declared probe first; {@code lastAttempt} is the attempt whose outcome is unknown. */
    record Probe(int lastAttempt) implements Decision {
    }

    /** Answer at once without running: held unknown, or a Retry-After that has not passed. */
    record Refuse(dev.effectful.Status status, dev.effectful.EffectApplied effect, Long retryAfterS, String message)
            implements Decision {
    }
}

package dev.effectful.core.reentry;

/** What to do with a call whose intent key may already be known: the output of {@link ReentryRules}. */
public sealed interface Decision {

    /** Run the body as attempt {@code attempt}. */
    record Run(int attempt) implements Decision {
    }

    /**
     * Answer with the stored ok result; the body does not run. A shared store carries the result's
     * JSON itself ({@code resultJson}); the local store points at the journal record holding it
     * ({@code resultIndex}, -1: not stored). {@code byPerson}: the effect is known from a person's
     * resolution, whose record {@code resultIndex} then points at (it carries the note, and the
     * value the person gave, if any).
     */
    record Replay(long resultIndex, String resultJson, boolean byPerson) implements Decision {
        public Replay(long resultIndex) {
            this(resultIndex, null, false);
        }

        public Replay(long resultIndex, String resultJson) {
            this(resultIndex, resultJson, false);
        }
    }

    /** Run the declared probe first; {@code lastAttempt} is the attempt whose outcome is unknown. */
    record Probe(int lastAttempt) implements Decision {
    }

    /**
     * Only from a shared store: another process holds a live lease on the key (its call is running,
     * or it died less than a lease ago). Wait and decide again; never run beside it.
     */
    record Elsewhere(String holder, long leaseLeftMillis) implements Decision {
    }

    /** Answer at once without running: held unknown, or a Retry-After that has not passed. */
    record Refuse(dev.effectful.core.journal.OutcomeWord status, dev.effectful.core.journal.Effect effect,
                  Long retryAfterS, String message)
            implements Decision {
    }

    /**
     * The first call of an intent whose tool needs a person's approval: journal {@code approval_requested}
     * and answer retryable, effect no, {@code retryAfterS} and the message; the body does not run. From a
     * shared store, only the host whose request row was created gets this; the others wait on that one.
     */
    record RequestApproval(long retryAfterS, String message) implements Decision {
    }

    /**
     * An approval was requested and no verdict has come yet: answer retryable, effect no, {@code retryAfterS}
     * and the message, without running, and without a second request.
     */
    record AwaitApproval(long retryAfterS, String message) implements Decision {
    }

    /**
     * An approval request got no verdict within the timeout: journal an {@code approval} record with verdict
     * {@code expired} and answer permanent, effect no, with {@code message}.
     */
    record ExpireApproval(String message) implements Decision {
    }

    /**
     * A person denied the intent (or it expired earlier): permanent, effect no. The note is {@code note} when
     * the store carries it, else read from the {@code approval} record at {@code recordIndex}.
     */
    record Denied(long recordIndex, String note, boolean expired) implements Decision {
    }
}

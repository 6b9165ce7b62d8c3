package dev.effectful;

/**
 * Whether a person must approve an intent of a tool before its body first runs
 * ({@link EffectfulTool#approval()}; also the configuration {@code effectful.approval}, a list of tool
 * names or kinds).
 *
 * <p>An approval belongs to the intent, not to the call: the first call of an intent that needs one
 * journals an {@code approval_requested} record and is answered retryable, effect no, with
 * {@code retry_after_s} and the message that a person must approve it first. Every repeat of the same
 * intent (rephrased, from another thread, after a restart, from another host sharing the store) waits on
 * that one request. Approved ({@code journal approve KEY --note TEXT}): the next call runs the body once.
 * Denied ({@code journal deny KEY --note TEXT}): permanent, effect no, with the person's note. No verdict
 * within {@code effectful.approval.timeout} (default {@code 24h}): expired, permanent, effect no.
 */
public enum Approval {
    /** No approval: the default. A tool still needs one when {@code effectful.approval} names it or its kind. */
    NONE,
    /** A person must approve each new intent of this tool before its body runs. */
    REQUIRED
}

package dev.effectful.runtime.reentry;

/** The last known state of an intent key, as far as re-entry is concerned. */
public enum Phase {
    /** An intent record with nothing after it: running now, or the process died mid-call. */
    INTENDED,
    OK,
    RETRYABLE,
    PERMANENT,
    UNKNOWN,
    /** A probe found nothing: the body may run. */
    PROBED_ABSENT,
    /** A probe threw: still unknown. */
    PROBE_FAILED,
    /** A person said the effect landed. */
    RESOLVED_APPLIED,
    /** A person said the effect did not land. */
    RESOLVED_NOT_APPLIED,
    // approvals (appended: the mapped index stores the ordinal)
    /** An approval was requested and no verdict has come: every call waits; nothing ran. */
    AWAITING_APPROVAL,
    /** A person approved: the next call runs the body. */
    APPROVED,
    /** A person denied it: refused for good, with their note. */
    DENIED,
    /** No verdict came within {@code effectful.approval.timeout}: refused for good. */
    EXPIRED
}

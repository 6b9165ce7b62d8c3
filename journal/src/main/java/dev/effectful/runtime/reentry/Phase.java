package dev.effectful.runtime.reentry;

/** The last known state of an intent key, as far as re-entry is concerned. */
public enum Phase {
    /** An intent record with nothing after it: running now, or the process died mid-call. */
    INTENDED(true),
    OK(false),
    RETRYABLE(false),
    PERMANENT(false),
    UNKNOWN(true),
    /** A probe found nothing: the body may run. */
    PROBED_ABSENT(false),
    /** A probe threw: still unknown. */
    PROBE_FAILED(true),
    /** A person said the effect landed. */
    RESOLVED_APPLIED(false),
    /** A person said the effect did not land. */
    RESOLVED_NOT_APPLIED(false),
    // approvals (appended: the mapped index stores the ordinal)
    /** An approval was requested and no verdict has come: every call waits; nothing ran. */
    AWAITING_APPROVAL(false),
    /** A person approved: the next call runs the body. */
    APPROVED(false),
    /** A person denied it: refused for good, with their note. */
    DENIED(false),
    /** No verdict came within {@code effectful.approval.timeout}: refused for good. */
    EXPIRED(false);

    private final boolean unresolved;

    Phase(boolean unresolved) {
        this.unresolved = unresolved;
    }

    /**
     * Whether nobody knows if the effect landed: a call in flight or cut by a crash, an unknown outcome, a
     * probe that failed. Such an intent is probed or held for a person; every view of "unresolved" (the
     * index, retention, the CLI, the console, the shared store's queries) asks this.
     */
    public boolean unresolved() {
        return unresolved;
    }

    /** The word a shared store keeps for this phase. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

package dev.effectful.core.reentry;

import dev.effectful.core.journal.Verdict;

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

    private static final Phase[] VALUES = values();

    private final boolean unresolved;

    /** Computed once: the shared store writes it on every call. */
    private final String word = name().toLowerCase(java.util.Locale.ROOT);

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

    /**
     * Whether the intent is not settled: nobody knows if its effect landed ({@link #unresolved}), or it waits for
     * a person's approval. What the operator's listings show ({@code journal unresolved}, {@code journal
     * approvals}, the console's desk), and what the index snapshot keeps apart for them ({@link OpenIntents}).
     */
    public boolean open() {
        return unresolved || this == AWAITING_APPROVAL;
    }

    /**
     * Whether the intent settled with its effect applied and known: its body succeeded, or a person said
     * the effect landed. Its stored result answers every later call; the CLI counts it as ok, the earlier
     * key format's lookup and the shared store's {@code ok} count ask this.
     */
    public boolean settledOk() {
        return this == OK || this == RESOLVED_APPLIED;
    }

    /**
     * The phase a verdict leads to. Exhaustive on purpose: a verdict added to {@link Verdict} does not
     * compile here until it is given its phase.
     */
    public static Phase after(Verdict verdict) {
        return switch (verdict) {
            case APPROVED -> APPROVED;
            case DENIED -> DENIED;
            case EXPIRED -> EXPIRED;
        };
    }

    /** The verdict that led to this phase ({@link #after}), or null for a phase no verdict leads to. */
    public Verdict verdict() {
        for (Verdict v : Verdict.values()) {
            if (after(v) == this) {
                return v;
            }
        }
        return null;
    }

    /** The word a shared store keeps for this phase. */
    public String word() {
        return word;
    }

    /** The phase a store's word stands for; null for null or a word this reader does not know. */
    public static Phase fromWord(String word) {
        for (Phase p : VALUES) {
            if (p.word.equals(word)) {
                return p;
            }
        }
        return null;
    }
}

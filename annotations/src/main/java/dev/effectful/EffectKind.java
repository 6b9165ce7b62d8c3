package dev.effectful;

/**
 * What kind of side effect a tool has; it decides how a repeat of the same intent is treated.
 *
 * <p>The kinds are ordered from harmless to irreversible. Only {@link #READ} is never
 * deduplicated; every other kind returns the stored success when the same intent comes again.
 * When the outcome of an earlier attempt is unknown, the kind decides whether the body may run
 * again without a probe (see the re-entry table in docs/OUTCOMES.md).
 */
public enum EffectKind {
    /** No effect: search, get, list. Always runs, still journaled and classified. */
    READ,
    /** Repeating produces the same state: set_status, PUT of a whole document. */
    IDEMPOTENT,
    /** Creates something; safe to re-run only when the receiver deduplicates on the intent key. */
    CREATE,
    /** Visible to a human: an email, a message, a notice. At most once. */
    SEND,
    /** Moves money. At most once; an unknown outcome waits for a probe or a person. */
    MONEY,
    /** Deletes or cancels. Never repeated automatically while its state is unknown. */
    DESTRUCTIVE
}

package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;

/**
 * What the journal says about one intent key, kept small because one is held per remembered key.
 *
 * @param attempts        the highest attempt number seen
 * @param effectApplied   the effect of the last outcome (yes, no, partial, unknown)
 * @param retryAfterUntil epoch millis before which a retry is refused; 0 = none. While an approval is
 *                        awaited ({@link Phase#AWAITING_APPROVAL}): when it was requested, which its expiry
 *                        counts from
 * @param resultIndex     journal index of the record holding the ok result (for {@link Phase#DENIED} and
 *                        {@link Phase#EXPIRED}: the {@code approval} record, holding the note); -1 = not stored.
 *                        Below -1 while the intent is not settled (see {@link #argsIndex}): every reader of a
 *                        result asks for one at 0 or more, so the two uses never meet
 * @param lastMillis      epoch millis of the latest record, for retention
 * @param resultJson      the ok result itself, when the store keeps it (a shared store does; the
 *                        local index keeps only {@code resultIndex} and leaves this null); for a denied
 *                        or expired approval in a shared store, the note
 * @param keySent         a covered HTTP client sent attempt {@code attempts}'s key (a {@code key_sent} record):
 *                        a re-run of that attempt with the same key is deduplicated by the service
 */
public record IntentState(Phase phase, int attempts, Effect effectApplied, long retryAfterUntil, long resultIndex,
                          long lastMillis, String resultJson, boolean keySent) {

    public IntentState(Phase phase, int attempts, Effect effectApplied, long retryAfterUntil, long resultIndex,
                       long lastMillis, String resultJson) {
        this(phase, attempts, effectApplied, retryAfterUntil, resultIndex, lastMillis, resultJson, false);
    }

    public IntentState(Phase phase, int attempts, Effect effectApplied, long retryAfterUntil, long resultIndex,
                       long lastMillis) {
        this(phase, attempts, effectApplied, retryAfterUntil, resultIndex, lastMillis, null, false);
    }

    /** The same state with {@code keySent} as given: how a host adds what only it knows to a shared store's row. */
    public IntentState withKeySent(boolean sent) {
        return sent == keySent ? this
                : new IntentState(phase, attempts, effectApplied, retryAfterUntil, resultIndex, lastMillis, resultJson, sent);
    }

    /**
     * The journal index of the latest {@code intent} (or {@code approval_requested}) record, the one with
     * the arguments, while the intent is in flight, unknown, failed its probe or awaits approval; -1 when
     * not known (a state made before this was kept, or a settled one). It rides in {@code resultIndex} as
     * {@code -2 - index}, so the table and its snapshot keep their layout and version: a reader that
     * predates it sees "no result stored", and a snapshot that predates it holds -1 there. The CLI reads
     * an intent's arguments through it without reading the journal before the snapshot.
     */
    public long argsIndex() {
        return resultIndex < -1 ? -2 - resultIndex : -1;
    }

    /** What {@code resultIndex} holds to point at the record at {@code index} (see {@link #argsIndex}). */
    static long pointingAt(long index) {
        return -2 - index;
    }

    /** An approval was requested and no verdict has come yet: listed apart from the unresolved. */
    public boolean awaitsApproval() {
        return phase == Phase.AWAITING_APPROVAL;
    }

    public boolean isUnresolved() {
        return phase.unresolved();
    }
}

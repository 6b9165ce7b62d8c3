package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Verdict;

/**
 * How each journal record moves an intent's state: the one place that reads records for
 * re-entry, used by the engine's index and by the CLI alike.
 */
public final class StateTransitions {

    private StateTransitions() {
    }

    public static IntentState next(IntentState s, long index, JournalRecord r) {
        int attempts = Math.max(s == null ? 0 : s.attempts(), r.attempt());
        long resultIndex = s == null ? -1 : s.resultIndex();
        long retryUntil = s == null ? 0 : s.retryAfterUntil();
        Effect effect = s == null ? null : s.effectApplied();
        long at = r.started() + (r.durationMs() == null ? 0 : r.durationMs());
        Phase phase = phaseAfter(s == null ? null : s.phase(), r);
        // the key went out for the latest attempt: a key_sent of an earlier attempt says nothing of this one,
        // and a new intent starts an attempt whose key has not gone out yet
        boolean keySent = s != null && s.keySent() && r.attempt() <= s.attempts();
        switch (r.type()) {
            case INTENT -> {
                retryUntil = 0;
                // the record with the arguments, for whoever lists this intent while it is not settled
                resultIndex = IntentState.pointingAt(index);
                keySent = keySent && r.attempt() == s.attempts();
            }
            case KEY_SENT -> keySent = keySent || r.attempt() == attempts;
            case OUTCOME -> {
                effect = r.effectApplied();
                resultIndex = phase == Phase.OK && r.result() != null ? index
                        : phase.unresolved() && resultIndex < -1 ? resultIndex : -1;
                retryUntil = r.retryAfterS() == null ? 0 : at + r.retryAfterS() * 1000;
            }
            case PROBE -> {
                if (phase == Phase.OK) {
                    effect = Effect.YES;
                    resultIndex = r.result() != null ? index : -1;
                }
            }
            case RESOLUTION -> {
                effect = r.effectApplied();
                // the resolution record itself: it holds the person's note, and the value they gave if any
                resultIndex = phase == Phase.RESOLVED_APPLIED ? index : -1;
            }
            case APPROVAL_REQUESTED -> {
                // when the request was made, kept where a retry time is: expiry counts from it (IntentState)
                retryUntil = r.started();
                resultIndex = IntentState.pointingAt(index); // the request holds the arguments
            }
            case APPROVAL -> {
                retryUntil = 0;
                // the verdict record itself: a denial's note is read from it
                resultIndex = phase == Phase.APPROVED ? -1 : index;
                if (phase != Phase.APPROVED) {
                    effect = Effect.NO;
                }
            }
            default -> {
                // dedup and refused records change nothing but the age
            }
        }
        return new IntentState(phase, attempts, effect, retryUntil, resultIndex, Math.max(at, s == null ? 0 : s.lastMillis()),
                null, keySent);
    }

    /**
     * Dedup and refused records only age an intent that is already known. Alone they are no intent
     * at all: a call refused before it started (task budget spent) never ran, and a dedup or refusal
     * whose intent lay in a cycle file retention deleted belongs to an intent that was forgotten.
     * Read as the first record of a key they made an "intended, no outcome" intent that a person
     * would have been asked to settle, and that retention then never forgot.
     */
    public static boolean agesOnly(JournalRecord r) {
        return r.type().agesOnly();
    }

    /**
     * Whether {@code r} alone, for a key never seen, is no intent: dedup and refused records (above), and a
     * {@code key_sent} whose intent lay in a cycle file retention deleted.
     */
    public static boolean startsNoIntent(JournalRecord r) {
        return !r.type().startsIntent();
    }

    /**
     * The phase an intent is in after {@code r}, given the phase before it ({@code null} for a key
     * seen for the first time): an intent with nothing after it is a call in flight or a crash;
     * an outcome sets it by its word; a probe found settles it ok, absent makes it runnable, failed
     * leaves it unknown; a person's resolution settles it either way; dedup and refused records
     * change nothing.
     */
    public static Phase phaseAfter(Phase before, JournalRecord r) {
        Phase current = before == null ? Phase.INTENDED : before;
        return switch (r.type()) {
            case INTENT -> Phase.INTENDED;
            case OUTCOME -> outcomePhase(r.outcome());
            case PROBE -> r.probe() == null ? Phase.PROBE_FAILED : switch (r.probe()) {
                case FOUND -> Phase.OK;
                case ABSENT -> Phase.PROBED_ABSENT;
                case FAILED -> Phase.PROBE_FAILED;
            };
            case RESOLUTION -> r.effectApplied() == Effect.YES ? Phase.RESOLVED_APPLIED : Phase.RESOLVED_NOT_APPLIED;
            case APPROVAL_REQUESTED -> Phase.AWAITING_APPROVAL;
            case APPROVAL -> approvalPhase(r.verdict());
            default -> current;
        };
    }

    /** The phase an {@code approval} record's verdict leads to; a verdict this reader does not know denies. */
    public static Phase approvalPhase(String verdict) {
        Verdict v = Verdict.fromWord(verdict);
        return v == null ? Phase.DENIED : Phase.after(v);
    }

    private static Phase outcomePhase(OutcomeWord outcome) {
        if (outcome == null) {
            return Phase.UNKNOWN;
        }
        return switch (outcome) {
            case OK -> Phase.OK;
            case RETRYABLE -> Phase.RETRYABLE;
            case PERMANENT -> Phase.PERMANENT;
            case UNKNOWN -> Phase.UNKNOWN;
        };
    }
}

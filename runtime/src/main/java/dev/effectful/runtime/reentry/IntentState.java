package dev.effectful.runtime.reentry;

import dev.effectful.runtime.journal.Effect;

/**
 * What the journal says about one intent key, kept small because one is held per remembered key.
 *
 * @param attempts        the highest attempt number seen
 * @param effectApplied   the effect of the last outcome (yes, no, partial, unknown)
 * @param retryAfterUntil epoch millis before which a retry is refused; 0 = none
 * @param resultIndex     journal index of the record holding the ok result; -1 = not stored
 * @param lastMillis      epoch millis of the latest record, for retention
 * @param resultJson      the ok result itself, when the store keeps it (a shared store does; the
 *                        local index keeps only {@code resultIndex} and leaves this null)
 */
public record IntentState(Phase phase, int attempts, Effect effectApplied, long retryAfterUntil, long resultIndex,
                          long lastMillis, String resultJson) {

    public IntentState(Phase phase, int attempts, Effect effectApplied, long retryAfterUntil, long resultIndex,
                       long lastMillis) {
        this(phase, attempts, effectApplied, retryAfterUntil, resultIndex, lastMillis, null);
    }

    public boolean isUnresolved() {
        return phase == Phase.INTENDED || phase == Phase.UNKNOWN || phase == Phase.PROBE_FAILED;
    }
}

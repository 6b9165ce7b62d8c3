package dev.effectful.runtime.reentry;

/**
 * What the journal says about one intent key, kept small because one is held per remembered key.
 *
 * @param attempts        the highest attempt number seen
 * @param effectApplied   the effect word of the last outcome (yes, no, partial, unknown)
 * @param retryAfterUntil epoch millis before which a retry is refused; 0 = none
 * @param resultIndex     journal index of the record holding the ok result; -1 = not stored
 * @param lastMillis      epoch millis of the latest record, for retention
 */
public record IntentState(Phase phase, int attempts, String effectApplied, long retryAfterUntil, long resultIndex,
                          long lastMillis) {

    public boolean isUnresolved() {
        return phase == Phase.INTENDED || phase == Phase.UNKNOWN || phase == Phase.PROBE_FAILED;
    }
}

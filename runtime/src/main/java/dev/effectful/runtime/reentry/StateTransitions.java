package dev.effectful.runtime.reentry;

import dev.effectful.runtime.journal.JournalRecord;

/** How each journal record moves an intent's state: the only place that reads records for re-entry. */
public final class StateTransitions {

    private StateTransitions() {
    }

    public static IntentState next(IntentState s, long index, JournalRecord r) {
        int attempts = Math.max(s == null ? 0 : s.attempts(), r.attempt());
        long resultIndex = s == null ? -1 : s.resultIndex();
        long retryUntil = s == null ? 0 : s.retryAfterUntil();
        String effect = s == null ? null : s.effectApplied();
        long at = r.started() + (r.durationMs() == null ? 0 : r.durationMs());
        Phase phase = s == null ? Phase.INTENDED : s.phase();
        switch (r.type()) {
            case INTENT -> {
                phase = Phase.INTENDED;
                retryUntil = 0;
            }
            case OUTCOME -> {
                phase = outcomePhase(r.outcome());
                effect = r.effectApplied();
                resultIndex = phase == Phase.OK && r.result() != null ? index : -1;
                retryUntil = r.retryAfterS() == null ? 0 : at + r.retryAfterS() * 1000;
            }
            case PROBE -> {
                switch (r.probe() == null ? "" : r.probe()) {
                    case "found" -> {
                        phase = Phase.OK;
                        effect = "yes";
                        resultIndex = r.result() != null ? index : -1;
                    }
                    case "absent" -> phase = Phase.PROBED_ABSENT;
                    default -> phase = Phase.PROBE_FAILED;
                }
            }
            case RESOLUTION -> {
                boolean applied = "yes".equals(r.effectApplied());
                phase = applied ? Phase.RESOLVED_APPLIED : Phase.RESOLVED_NOT_APPLIED;
                effect = r.effectApplied();
                resultIndex = applied && r.result() != null ? index : -1;
            }
            default -> {
                // dedup and refused records change nothing but the age
            }
        }
        return new IntentState(phase, attempts, effect, retryUntil, resultIndex, Math.max(at, s == null ? 0 : s.lastMillis()));
    }

    private static Phase outcomePhase(String outcome) {
        if (outcome == null) {
            return Phase.UNKNOWN;
        }
        return switch (outcome) {
            case "ok" -> Phase.OK;
            case "retryable" -> Phase.RETRYABLE;
            case "permanent" -> Phase.PERMANENT;
            default -> Phase.UNKNOWN;
        };
    }
}

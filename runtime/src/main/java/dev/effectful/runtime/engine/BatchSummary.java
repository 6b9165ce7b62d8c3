package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;

import java.util.List;

/**
 * A batch call's overall outcome from its items. A boolean is a lie for bulk work: all, none,
 * some and unknown are four results, and the message says how many of each
 * ("38 of 40 rows written; 1 blocked, 1 unresolved").
 */
record BatchSummary(Status status, EffectApplied effect, String message) {

    static BatchSummary of(List<Outcome.Item> items, String noun) {
        int yes = 0;
        int blocked = 0;
        int retry = 0;
        int unresolved = 0;
        for (Outcome.Item i : items) {
            if (i.applied() == EffectApplied.YES) {
                yes++;
            } else if (i.status() == Status.PERMANENT) {
                blocked++;
            } else if (i.status() == Status.RETRYABLE) {
                retry++;
            } else {
                unresolved++;
            }
        }
        int n = items.size();
        StringBuilder msg = new StringBuilder().append(yes).append(" of ").append(n).append(' ').append(noun).append(" written");
        String sep = "; ";
        if (blocked > 0) {
            msg.append(sep).append(blocked).append(" blocked");
            sep = ", ";
        }
        if (retry > 0) {
            msg.append(sep).append(retry).append(" to retry");
            sep = ", ";
        }
        if (unresolved > 0) {
            msg.append(sep).append(unresolved).append(" unresolved");
        }
        if (yes == n) {
            return new BatchSummary(Status.OK, EffectApplied.YES, msg.toString());
        }
        Status status = blocked > 0 ? Status.PERMANENT : retry > 0 ? Status.RETRYABLE : Status.UNKNOWN;
        EffectApplied effect = yes > 0 ? EffectApplied.PARTIAL : unresolved > 0 ? EffectApplied.UNKNOWN : EffectApplied.NO;
        return new BatchSummary(status, effect, msg.toString());
    }
}

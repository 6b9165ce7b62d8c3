package dev.effectful.core.keys;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.reentry.IntentState;

import java.util.Objects;
import java.util.Optional;

/**
 * Which key a call goes under in a journal that may hold keys of the earlier format
 * ({@link KeyFormat}), for a tuple whose key the escaping changed. A pure function of what the store
 * knows of both keys and, when the earlier key's ok record can be read, whose intent it was: the
 * plain join could give one key to two tuples, so an earlier key is this call's only if nothing
 * says it belongs to another tuple.
 */
public final class EarlierKeys {

    private EarlierKeys() {
    }

    /** The task, actor (empty for none) and tool name an intent was made for. */
    public record Owner(String task, String actor, String verb) {
        public Owner {
            actor = actor == null ? "" : actor;
        }
    }

    /** The decision. */
    public sealed interface Choice {
        /** The escaped material's key: the earlier key is unknown, another tuple's, or settled with no effect. */
        record Current() implements Choice {
        }

        /** The earlier key: this tuple's intent from before the upgrade (or nothing says otherwise). */
        record Earlier(String key) implements Choice {
        }

        /** The earlier key's intent has no known outcome and may be this call's: a person settles it. */
        record Hold(String message) implements Choice {
        }
    }

    /**
     * @param current what the store knows of the escaped material's key
     * @param earlier what the store knows of the plain join's key
     * @param earlierOwner whose intent the earlier key's stored result was, when it could be read
     * @param mine this call's tuple
     * @param earlierKey the plain join's key
     */
    public static Choice choose(Optional<IntentState> current, Optional<IntentState> earlier, Optional<Owner> earlierOwner,
                                Owner mine, String earlierKey) {
        Objects.requireNonNull(mine, "mine");
        if (current.isPresent() || earlier.isEmpty()) {
            return new Choice.Current();
        }
        IntentState e = earlier.get();
        if (e.phase().settledOk()) {
            // an owner that differs is the collision the escaping closes: that result is not this call's
            return earlierOwner.isPresent() && !earlierOwner.get().equals(mine) ? new Choice.Current()
                    : new Choice.Earlier(earlierKey);
        }
        if (!e.isUnresolved() && e.effectApplied() == Effect.NO) {
            return new Choice.Current();
        }
        return new Choice.Hold("an intent journaled by an earlier Effectful version under key " + earlierKey
                + " (the key format before '|' and '\\' in task, actor, tool name and slot were escaped) may be this"
                + " call's and has no known outcome: check the effect at its receiver, then record it with: journal"
                + " resolve " + earlierKey + " --applied yes|no");
    }
}

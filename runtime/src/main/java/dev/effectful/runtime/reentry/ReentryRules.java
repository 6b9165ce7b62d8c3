package dev.effectful.runtime.reentry;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Status;
import dev.effectful.runtime.journal.Effect;

/**
 * The re-entry table of the README, in one place: what a call does when the journal already knows
 * its intent key. A retry is a guess and a probe is a measurement, so an unknown outcome is probed
 * before anything runs again, and held for a person when there is no probe and a repeat would hurt.
 *
 * <pre>
 * last known state                          | decision
 * ------------------------------------------+---------------------------------------------------
 * none                                      | run attempt 1
 * READ tool, any state                      | run (reads are never deduplicated)
 * ok, or resolved "applied yes"             | replay the stored value; body not run
 * retryable, Retry-After not passed         | refuse: retryable, effect no, seconds left
 * retryable / permanent (effect no),        | run attempt n+1
 *   probe found nothing, resolved "no"      |
 * unknown / intended (crash) / probe failed |
 *   with a probe                            | probe first
 *   no probe: IDEMPOTENT                    | run attempt n+1
 *   no probe, any kind: key_sent for the    | run attempt n+1 with the same key (the service
 *     attempt, or keyable = true declared   |   deduplicates it)
 *   no probe, no key known sent: SEND,      | refuse: unknown, held until a person resolves it
 *     MONEY, DESTRUCTIVE, CREATE            |
 * </pre>
 * (A key in flight in this process is waited for before this table is consulted.)
 *
 * <p>Items of a batch tool follow the same table with one difference: an item refused for good
 * (permanent) is reported again, never sent again, because a batch retry is scoped to the items
 * that did not land and the invalid one will not land by repetition.
 */
public final class ReentryRules {

    private ReentryRules() {
    }

    /**
     * The table's rule for an intent whose effect nobody knows (intended, unknown, probe failed), on
     * plain values: the CLI uses it too, and runs without the API classes ({@code EffectKind}) loaded.
     */
    public static final class UnknownEffect {

        private UnknownEffect() {
        }

        /**
         * Without a probe, running again is harmless only for these (READ never gets here in decide): a kind
         * whose repeat changes nothing, or any kind whose repeat carries a key the receiver deduplicates on.
         *
         * @param keyed the tool declares {@code keyable = true} (the user's promise), or a covered client was
         *              seen sending the unknown attempt's key ({@code key_sent})
         */
        public static boolean repeatIsHarmless(String kindName, boolean keyed) {
            return "IDEMPOTENT".equals(kindName) || "READ".equals(kindName) || keyed;
        }

        /** The next call settles it without a person: probes first, or runs again harmlessly. */
        public static boolean settlesByItself(String kindName, boolean keyed, boolean hasProbe) {
            return hasProbe || repeatIsHarmless(kindName, keyed);
        }
    }

    /** The table for one item of a batch call. */
    public static Decision decideItem(IntentState s, EffectKind kind, boolean keyable, boolean hasProbe,
                                      String itemKey, long nowMillis) {
        if (s != null && s.phase() == Phase.PERMANENT) {
            return new Decision.Refuse(Status.PERMANENT, EffectApplied.NO, null, "refused earlier; not sent again");
        }
        return decide(s, kind, keyable, hasProbe, itemKey, nowMillis);
    }

    /**
     * The table for a call of a tool of {@code kind} whose key is in state {@code s} (null: never seen).
     *
     * @param keyable the tool declares {@code keyable = true}: the user promises the receiver deduplicates on the
     *                intent key, whatever the kind. A {@code keyHeader} alone is not this; the state's
     *                {@link IntentState#keySent} says whether the unknown attempt's key went out
     */
    public static Decision decide(IntentState s, EffectKind kind, boolean keyable, boolean hasProbe, String intentKey,
                                  long nowMillis) {
        return decide(s, kind, keyable, hasProbe, intentKey, nowMillis, ResolveHint.generic());
    }

    /** As above; a held intent's message names {@code hint}'s command, ready to paste. */
    public static Decision decide(IntentState s, EffectKind kind, boolean keyable, boolean hasProbe, String intentKey,
                                  long nowMillis, ResolveHint hint) {
        if (s == null) {
            return new Decision.Run(1);
        }
        int next = s.attempts() + 1;
        if (kind == EffectKind.READ) {
            return new Decision.Run(next);
        }
        switch (s.phase()) {
            case OK, RESOLVED_APPLIED -> {
                return new Decision.Replay(s.resultIndex(), s.resultJson(), s.phase() == Phase.RESOLVED_APPLIED);
            }
            case RETRYABLE -> {
                if (s.retryAfterUntil() > nowMillis && s.effectApplied() != Effect.UNKNOWN) {
                    long left = (s.retryAfterUntil() - nowMillis + 999) / 1000;
                    return new Decision.Refuse(Status.RETRYABLE, EffectApplied.NO, left,
                            "the service asked to wait: retry after " + left + " s; not sent again before then");
                }
                return new Decision.Run(next);
            }
            case PERMANENT, PROBED_ABSENT, RESOLVED_NOT_APPLIED -> {
                return new Decision.Run(next);
            }
            default -> {
                // INTENDED, UNKNOWN, PROBE_FAILED: nobody knows whether the effect landed
                if (hasProbe) {
                    return new Decision.Probe(s.attempts());
                }
                // the key header alone is no promise: only a key seen going out (or the user's keyable = true)
                // lets the service deduplicate the re-run; a request through an uncovered client carried none
                if (UnknownEffect.repeatIsHarmless(kind.name(), keyable || s.keySent())) {
                    return new Decision.Run(next);
                }
                return new Decision.Refuse(Status.UNKNOWN, EffectApplied.UNKNOWN, null,
                        "attempt " + s.attempts() + " of this " + kind.name().toLowerCase(java.util.Locale.ROOT)
                                + " may have applied and no probe is declared: held until a person resolves it; "
                                + hint.sentence(intentKey) + "; do not retry");
            }
        }
    }
}

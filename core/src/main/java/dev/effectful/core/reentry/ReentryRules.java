package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;

/**
 * The re-entry table of docs/OUTCOMES.md, in one place: what a call does when the journal already knows
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
 * <p>Approvals come first ({@link #decideApproval}): they belong to the intent, so a tool that needs one
 * never runs a new intent before a person approved it, and every repeat waits on the one request.
 * <pre>
 * last known state                          | decision
 * ------------------------------------------+---------------------------------------------------
 * none, the tool needs approval             | request it: approval_requested; retryable, effect no
 * approval requested, within the timeout    | refuse: retryable, effect no, retry_after_s
 * approval requested, timeout passed        | expire it: approval expired; permanent, effect no
 * approved                                  | run attempt n+1 (then the table above, as usual)
 * denied, or expired                        | refuse: permanent, effect no, with the person's note
 * </pre>
 *
 * <p>Items of a batch tool follow the same table with one difference: an item refused for good
 * (permanent) is reported again, never sent again, because a batch retry is scoped to the items
 * that did not land and the invalid one will not land by repetition.
 */
public final class ReentryRules {

    private ReentryRules() {
    }

    /** The table for one item of a batch call. */
    public static Decision decideItem(IntentState s, Kind kind, boolean keyable, boolean hasProbe,
                                      String itemKey, long nowMillis) {
        if (s != null && s.phase() == Phase.PERMANENT) {
            return new Decision.Refuse(OutcomeWord.PERMANENT, Effect.NO, null, "refused earlier; not sent again");
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
    public static Decision decide(IntentState s, Kind kind, boolean keyable, boolean hasProbe, String intentKey,
                                  long nowMillis) {
        return decide(s, kind, keyable, hasProbe, intentKey, nowMillis, ResolveHint.generic());
    }

    /**
     * Whether a tool's new intents wait for a person's approval ({@code approval = REQUIRED}, or named in
     * {@code effectful.approval}), and how long a request waits for a verdict before it expires.
     */
    public record ApprovalRule(boolean required, long timeoutMillis) {
        /** No approval needed; a request made earlier (another configuration) still expires after 24 h. */
        public static final ApprovalRule NONE = new ApprovalRule(false, java.util.concurrent.TimeUnit.HOURS.toMillis(24));
        /** How often a waiting caller is told to ask again, at most. */
        static final long ASK_AGAIN_S = 60;
    }

    /** As above; a held intent's message names {@code hint}'s command, ready to paste. */
    public static Decision decide(IntentState s, Kind kind, boolean keyable, boolean hasProbe, String intentKey,
                                  long nowMillis, ResolveHint hint) {
        return decide(s, kind, keyable, hasProbe, intentKey, nowMillis, hint, ApprovalRule.NONE);
    }

    /** As above, approvals first ({@link #decideApproval}); READ tools never wait for one. */
    public static Decision decide(IntentState s, Kind kind, boolean keyable, boolean hasProbe, String intentKey,
                                  long nowMillis, ResolveHint hint, ApprovalRule approval) {
        if (kind != Kind.READ) {
            Decision a = decideApproval(s, approval, nowMillis);
            if (a != null) {
                return a;
            }
        }
        return decideReentry(s, kind, keyable, hasProbe, intentKey, nowMillis, hint);
    }

    /**
     * The approval part of the table, or null when approvals have nothing to say (no approval needed and none
     * requested, or the approved intent has run since and the table above takes over).
     */
    public static Decision decideApproval(IntentState s, ApprovalRule rule, long nowMillis) {
        if (s == null) {
            if (!rule.required()) {
                return null;
            }
            long wait = Math.max(1, Math.min(ApprovalRule.ASK_AGAIN_S, rule.timeoutMillis() / 1000));
            return new Decision.RequestApproval(wait, "a person must approve this first: approval requested; not run;"
                    + " ask again in " + wait + " s or later (the same request stays pending; it is never asked twice)");
        }
        switch (s.phase()) {
            case AWAITING_APPROVAL -> {
                long requested = s.retryAfterUntil();
                long expires = requested + rule.timeoutMillis();
                if (nowMillis >= expires) {
                    return new Decision.ExpireApproval("no person approved this within "
                            + java.time.Duration.ofMillis(rule.timeoutMillis()).toString().substring(2).toLowerCase(java.util.Locale.ROOT)
                            + ": the approval request expired; not run; do not retry, tell the user it was not approved");
                }
                long left = (expires - nowMillis + 999) / 1000;
                long wait = Math.max(1, Math.min(ApprovalRule.ASK_AGAIN_S, left));
                long age = Math.max(0, (nowMillis - requested) / 1000);
                return new Decision.AwaitApproval(wait,
                        "a person must approve this first: approval requested " + age + " s ago, still pending; not run;"
                                + " ask again in " + wait + " s or later");
            }
            case APPROVED -> {
                return new Decision.Run(s.attempts() + 1);
            }
            case DENIED -> {
                return new Decision.Denied(s.resultIndex(), s.resultJson(), false);
            }
            case EXPIRED -> {
                return new Decision.Denied(s.resultIndex(), s.resultJson(), true);
            }
            default -> {
                return null;
            }
        }
    }

    /** The message a denied or expired intent is refused with, from the person's note (null: none given). */
    public static String deniedMessage(boolean expired, String note) {
        if (expired) {
            return "the approval request expired without a verdict; not run; do not retry, tell the user it was not"
                    + " approved";
        }
        return "a person denied this" + (note == null || note.isBlank() ? "" : ": " + note)
                + "; not run; do not retry";
    }

    private static Decision decideReentry(IntentState s, Kind kind, boolean keyable, boolean hasProbe,
                                          String intentKey, long nowMillis, ResolveHint hint) {
        if (s == null) {
            return new Decision.Run(1);
        }
        int next = s.attempts() + 1;
        if (kind == Kind.READ) {
            return new Decision.Run(next);
        }
        switch (s.phase()) {
            case OK, RESOLVED_APPLIED -> {
                return new Decision.Replay(s.resultIndex(), s.resultJson(), s.phase() == Phase.RESOLVED_APPLIED);
            }
            case RETRYABLE -> {
                if (s.retryAfterUntil() > nowMillis && s.effectApplied() != Effect.UNKNOWN) {
                    long left = (s.retryAfterUntil() - nowMillis + 999) / 1000;
                    return new Decision.Refuse(OutcomeWord.RETRYABLE, Effect.NO, left,
                            "the service asked to wait: retry after " + left + " s; not sent again before then");
                }
                return new Decision.Run(next);
            }
            case PERMANENT, PROBED_ABSENT, RESOLVED_NOT_APPLIED, APPROVED -> {
                return new Decision.Run(next);
            }
            case AWAITING_APPROVAL, DENIED, EXPIRED -> {
                // only a READ gets here (decideApproval answers the others): reads never wait for approval
                return new Decision.Run(next);
            }
            default -> {
                // INTENDED, UNKNOWN, PROBE_FAILED: nobody knows whether the effect landed
                if (hasProbe) {
                    return new Decision.Probe(s.attempts());
                }
                // the key header alone is no promise: only a key seen going out (or the user's keyable = true)
                // lets the service deduplicate the re-run; a request through an uncovered client carried none
                if (kind.runsAgainAfterUnknown(keyable || s.keySent())) {
                    return new Decision.Run(next);
                }
                return new Decision.Refuse(OutcomeWord.UNKNOWN, Effect.UNKNOWN, null,
                        "attempt " + s.attempts() + " of this " + kind.name().toLowerCase(java.util.Locale.ROOT)
                                + " may have applied and no probe is declared: held until a person resolves it; "
                                + hint.forModel(intentKey));
            }
        }
    }
}

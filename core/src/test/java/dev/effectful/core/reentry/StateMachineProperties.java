package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ScaledTries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The intent state machine ({@link StateTransitions}, {@link IntentState}, {@link Phase}) and the re-entry
 * table ({@link ReentryRules}) over generated histories of one intent. A history is what the journal can
 * hold: the records the engine writes for the decisions the table makes (intent, key_sent, outcome of any
 * word or none at all after a crash, probe of any result, dedup, refused, approval requested, expired),
 * a person's resolution at any time (with {@code --force}: whatever the state) and approval or denial
 * while one is awaited, with noise a journal allows: a record appended twice, dedup and refused records of
 * concurrent callers, and damaged records, which every reader skips. The state is rebuilt after every
 * record the way the index rebuilds it at start (dedup, refused and key_sent do not start an intent), and
 * every decision is taken on that rebuilt state: the worst case of a restart after each record.
 *
 * <p>What holds, from docs/OUTCOMES.md ("Re-entry"): (1) a settled intent (ok, or resolved applied) is
 * replayed, never run again, whatever follows, until a person's later resolution says it did not apply;
 * (2) an intent whose outcome is unknown (an unknown or failed-probe outcome, or an intent a later call
 * found without an outcome) of a tool that may not run twice (CREATE, SEND, MONEY, DESTRUCTIVE, not
 * keyable) becomes ok only after a probe record, a key_sent record or a person's resolution; (3) the table
 * itself, over any state: settled means replay for every kind but READ, unknown without a probe, a key
 * seen going out or keyable means held, and READ always runs.
 */
@AddLifecycleHook(ScaledTries.class)
class StateMachineProperties {

    private static final Set<Phase> SETTLED = EnumSet.of(Phase.OK, Phase.RESOLVED_APPLIED);
    private static final Set<Kind> HELD_KINDS = EnumSet.of(Kind.CREATE, Kind.SEND, Kind.MONEY, Kind.DESTRUCTIVE);
    private static final String KEY = "0123456789abcdef0123456789abcdef";

    /** One generated step: what happens next to the intent. */
    enum Step { CALL, RESOLVE_YES, RESOLVE_NO, APPROVE, DENY, DUPLICATE_LAST, DAMAGE_NEXT, NOISE }

    /** A call's fate when it runs: its outcome (null: the process died mid-call), effect, key sent, probe result. */
    record Fate(OutcomeWord outcome, Effect effect, boolean keySent, ProbeResult probe, boolean retryAfter, int secondsLater) {
    }

    record Tool(Kind kind, boolean hasProbe, boolean keyable, boolean approval) {
    }

    @Provide
    Arbitrary<Tool> tools() {
        return Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.of(true, false), Arbitraries.of(true, false),
                Arbitraries.frequency(net.jqwik.api.Tuple.of(3, false), net.jqwik.api.Tuple.of(1, true))).as(Tool::new);
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        // calls are most of what happens to an intent
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, Arbitraries.just(Step.CALL)),
                net.jqwik.api.Tuple.of(7, Arbitraries.of(Step.values()))).list().ofMinSize(1).ofMaxSize(30);
    }

    @Provide
    Arbitrary<List<Fate>> fates() {
        return Combinators.combine(Arbitraries.of(OutcomeWord.class).injectNull(0.25), Arbitraries.of(Effect.class),
                Arbitraries.of(true, false), Arbitraries.of(ProbeResult.class), Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 120)).as(Fate::new).list().ofSize(30);
    }

    @Property(tries = 4000)
    void settledStaysSettledAndUnknownNeedsEvidence(@ForAll("tools") Tool tool, @ForAll("steps") List<Step> steps,
                                                    @ForAll("fates") List<Fate> fates) {
        History h = new History(tool);
        for (int i = 0; i < steps.size(); i++) {
            h.step(steps.get(i), fates.get(i));
        }
    }

    /** The journal of one intent as generated, and what a reader rebuilds from it after each record. */
    private static final class History {
        private final Tool tool;
        private final List<JournalRecord> records = new ArrayList<>();
        private final ReentryRules.ApprovalRule approval;
        private IntentState state;
        private long now = 1_780_000_000_000L;
        private boolean damageNext;
        // (1): settled since, and no resolution saying "not applied" after it
        private boolean settled;
        // (2): an unknown outcome seen, and whether a probe, key_sent or resolution was read since
        private boolean unknownEpisode;
        private boolean evidence;
        private final StringBuilder trace = new StringBuilder();

        History(Tool tool) {
            this.tool = tool;
            this.approval = tool.approval() ? new ReentryRules.ApprovalRule(true, 3_600_000L) : ReentryRules.ApprovalRule.NONE;
        }

        void step(Step step, Fate fate) {
            now += fate.secondsLater() * 1000L;
            switch (step) {
                case CALL -> call(fate);
                case RESOLVE_YES, RESOLVE_NO -> {
                    if (state != null) {
                        append(base(RecordType.RESOLUTION).effectApplied(step == Step.RESOLVE_YES ? Effect.YES : Effect.NO)
                                .note("checked").build());
                    }
                }
                case APPROVE, DENY -> {
                    // the CLI approves or denies only an intent awaiting approval
                    if (state != null && state.phase() == Phase.AWAITING_APPROVAL) {
                        append(base(RecordType.APPROVAL).verdict(step == Step.APPROVE ? "approved" : "denied").by("op").build());
                    }
                }
                case DUPLICATE_LAST -> {
                    if (!records.isEmpty()) {
                        append(records.get(records.size() - 1));
                    }
                }
                case DAMAGE_NEXT -> damageNext = true;
                case NOISE -> append(base(fate.keySent() ? RecordType.DEDUP : RecordType.REFUSED).build());
            }
        }

        private void call(Fate fate) {
            if (state != null && state.phase() == Phase.INTENDED) {
                // a call found an intent without an outcome: a crash, its effect unknown
                enterUnknown();
            }
            Decision d = ReentryRules.decide(state, tool.kind(), tool.keyable(), tool.hasProbe(), KEY, now,
                    ResolveHint.generic(), approval);
            trace.append("  decide -> ").append(d).append('\n');
            if (settled && tool.kind() != Kind.READ) {
                assertThat(d).as("a settled intent is replayed\n%s", trace).isInstanceOf(Decision.Replay.class);
            }
            if (d instanceof Decision.Run run) {
                append(base(RecordType.INTENT).attempt(run.attempt()).build());
                if (fate.keySent()) {
                    append(base(RecordType.KEY_SENT).attempt(run.attempt()).header("Idempotency-Key").build());
                }
                if (fate.outcome() != null) {
                    OutcomeWord o = fate.outcome();
                    Effect e = o == OutcomeWord.OK ? Effect.YES : o == OutcomeWord.UNKNOWN ? Effect.UNKNOWN : fate.effect();
                    append(base(RecordType.OUTCOME).attempt(run.attempt()).outcome(o).effectApplied(e)
                            .result(o == OutcomeWord.OK ? "{}" : null).durationMs(5L)
                            .retryAfterS(o == OutcomeWord.RETRYABLE && fate.retryAfter() ? 30L : null).build());
                }
            } else if (d instanceof Decision.Probe p) {
                append(base(RecordType.PROBE).attempt(p.lastAttempt()).probe(fate.probe()).build());
            } else if (d instanceof Decision.Replay) {
                append(base(RecordType.DEDUP).outcome(OutcomeWord.OK).effectApplied(Effect.YES).build());
            } else if (d instanceof Decision.RequestApproval) {
                append(base(RecordType.APPROVAL_REQUESTED).build());
            } else if (d instanceof Decision.ExpireApproval) {
                append(base(RecordType.APPROVAL).verdict("expired").build());
            } else {
                append(base(RecordType.REFUSED).build());
            }
        }

        private JournalRecord.Builder base(RecordType type) {
            return JournalRecord.of(type).task("t").call("tool").kind(tool.kind()).intentKey(KEY)
                    .attempt(state == null ? 0 : state.attempts()).started(now);
        }

        private void append(JournalRecord r) {
            records.add(r);
            boolean damaged = damageNext;
            damageNext = false;
            trace.append(damaged ? "  (damaged) " : "  ").append(r.type().word()).append(' ')
                    .append(r.outcome() == null ? "" : r.outcome().word()).append(r.probe() == null ? "" : r.probe().word())
                    .append(r.effectApplied() == null ? "" : " effect " + r.effectApplied().word())
                    .append(r.verdict() == null ? "" : r.verdict()).append(" a").append(r.attempt()).append('\n');
            if (damaged || (state == null && StateTransitions.startsNoIntent(r))) {
                return; // readers skip damage; dedup, refused and key_sent start no intent
            }
            Phase before = state == null ? null : state.phase();
            state = StateTransitions.next(state, records.size() - 1, r);
            trace.append("    -> ").append(state.phase()).append(state.keySent() ? " key sent" : "").append('\n');
            if (r.type() == RecordType.PROBE || r.type() == RecordType.KEY_SENT || r.type() == RecordType.RESOLUTION) {
                evidence = true;
            }
            if (r.type() == RecordType.RESOLUTION && r.effectApplied() != Effect.YES) {
                settled = false;
            }
            Phase after = state.phase();
            if (after == Phase.UNKNOWN || after == Phase.PROBE_FAILED) {
                enterUnknown();
            }
            if (SETTLED.contains(after) && !SETTLED.contains(before == null ? Phase.INTENDED : before)) {
                if (unknownEpisode && HELD_KINDS.contains(tool.kind()) && !tool.keyable()) {
                    assertThat(evidence).as("an unknown outcome became %s without a probe, key_sent or resolution\n%s",
                            after, trace).isTrue();
                }
                unknownEpisode = false;
            }
            if (SETTLED.contains(after)) {
                settled = true;
            }
        }

        private void enterUnknown() {
            if (!unknownEpisode) {
                unknownEpisode = true;
                // a key_sent record of the attempt now unknown was read before the episode began: it counts
                evidence = state.keySent();
            }
        }
    }

    // ---- (3) the table over any state

    @Provide
    Arbitrary<IntentState> states() {
        return Combinators.combine(Arbitraries.of(Phase.class), Arbitraries.integers().between(0, 1000),
                Arbitraries.of(Effect.class).injectNull(0.2), Arbitraries.longs().between(0, 4_000_000_000_000L),
                Arbitraries.longs().between(-1, 1000), Arbitraries.of(true, false))
                .as((p, a, e, retry, result, sent) -> new IntentState(p, a, e, retry, result, 0, null, sent));
    }

    @Property(tries = 20000)
    void theTableOverAnyState(@ForAll("states") IntentState s, @ForAll Kind kind, @ForAll boolean keyable,
                              @ForAll boolean hasProbe, @ForAll boolean approvalRequired,
                              @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int nowSeconds) {
        long now = nowSeconds * 1000L;
        ReentryRules.ApprovalRule rule = approvalRequired ? new ReentryRules.ApprovalRule(true, 3_600_000L)
                : ReentryRules.ApprovalRule.NONE;
        Decision d = ReentryRules.decide(s, kind, keyable, hasProbe, KEY, now, ResolveHint.generic(), rule);
        if (kind == Kind.READ) {
            assertThat(d).isInstanceOf(Decision.Run.class);
            return;
        }
        if (SETTLED.contains(s.phase())) {
            assertThat(d).isInstanceOf(Decision.Replay.class);
        }
        if (s.phase().unresolved()) {
            if (hasProbe) {
                assertThat(d).isEqualTo(new Decision.Probe(s.attempts()));
            } else if (HELD_KINDS.contains(kind) && !keyable && !s.keySent()) {
                assertThat(d).isInstanceOf(Decision.Refuse.class);
                assertThat(((Decision.Refuse) d).status()).isEqualTo(OutcomeWord.UNKNOWN);
            } else {
                assertThat(d).isEqualTo(new Decision.Run(s.attempts() + 1));
            }
        }
        if (d instanceof Decision.Run run) {
            assertThat(run.attempt()).isEqualTo(s.attempts() + 1);
            assertThat(s.phase()).isNotIn(Phase.OK, Phase.RESOLVED_APPLIED, Phase.AWAITING_APPROVAL, Phase.DENIED,
                    Phase.EXPIRED);
        }
    }
}

package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per row of the re-entry table. */
class ReentryRulesTest {

    private static final long NOW = 1_000_000L;

    private static IntentState state(Phase p, int attempts, Effect effect, long retryUntil, long resultIndex) {
        return new IntentState(p, attempts, effect, retryUntil, resultIndex, NOW - 10);
    }

    private static Decision decide(IntentState s, Kind kind, boolean keyable, boolean probe) {
        return ReentryRules.decide(s, kind, keyable, probe, "k", NOW);
    }

    @Test
    void unknownKeyRunsFirstAttempt() {
        assertThat(decide(null, Kind.SEND, false, false)).isEqualTo(new Decision.Run(1));
    }

    @Test
    void readsAlwaysRunEvenWhenOk() {
        assertThat(decide(state(Phase.OK, 3, Effect.YES, 0, 5), Kind.READ, false, false)).isEqualTo(new Decision.Run(4));
        assertThat(decide(state(Phase.UNKNOWN, 1, Effect.UNKNOWN, 0, -1), Kind.READ, false, false)).isEqualTo(new Decision.Run(2));
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = "READ", mode = EnumSource.Mode.EXCLUDE)
    void okReplaysStoredValue(Kind kind) {
        assertThat(decide(state(Phase.OK, 1, Effect.YES, 0, 77), kind, false, false)).isEqualTo(new Decision.Replay(77));
    }

    @Test
    void retryAfterNotPassedIsRefusedWithSecondsLeft() {
        Decision d = decide(state(Phase.RETRYABLE, 1, Effect.NO, NOW + 29_500, -1), Kind.SEND, false, false);
        assertThat(d).isInstanceOf(Decision.Refuse.class);
        Decision.Refuse r = (Decision.Refuse) d;
        assertThat(r.status()).isEqualTo(OutcomeWord.RETRYABLE);
        assertThat(r.effect()).isEqualTo(Effect.NO);
        assertThat(r.retryAfterS()).isEqualTo(30L);
    }

    @Test
    void retryAfterPassedRunsAgain() {
        assertThat(decide(state(Phase.RETRYABLE, 1, Effect.NO, NOW - 1, -1), Kind.SEND, false, false)).isEqualTo(new Decision.Run(2));
    }

    @Test
    void retryableAndPermanentWithNoEffectRunAgain() {
        assertThat(decide(state(Phase.RETRYABLE, 2, Effect.NO, 0, -1), Kind.MONEY, false, false)).isEqualTo(new Decision.Run(3));
        assertThat(decide(state(Phase.PERMANENT, 1, Effect.NO, 0, -1), Kind.DESTRUCTIVE, false, false)).isEqualTo(new Decision.Run(2));
    }

    @ParameterizedTest
    @EnumSource(value = Phase.class, names = {"UNKNOWN", "INTENDED", "PROBE_FAILED"})
    void unknownWithProbeProbesFirst(Phase phase) {
        assertThat(decide(state(phase, 2, Effect.UNKNOWN, 0, -1), Kind.SEND, false, true)).isEqualTo(new Decision.Probe(2));
    }

    @Test
    void unknownWithoutProbeRunsForIdempotentAndKeyableCreate() {
        IntentState s = state(Phase.UNKNOWN, 1, Effect.UNKNOWN, 0, -1);
        assertThat(decide(s, Kind.IDEMPOTENT, false, false)).isEqualTo(new Decision.Run(2));
        assertThat(decide(s, Kind.CREATE, true, false)).isEqualTo(new Decision.Run(2));
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"SEND", "MONEY", "DESTRUCTIVE", "CREATE"})
    void unknownWithoutProbeIsHeldForAPerson(Kind kind) {
        Decision d = decide(state(Phase.INTENDED, 1, null, 0, -1), kind, false, false);
        assertThat(d).isInstanceOf(Decision.Refuse.class);
        assertThat(((Decision.Refuse) d).status()).isEqualTo(OutcomeWord.UNKNOWN);
        // the model's answer: what to tell the user, never the operator's command or a path
        assertThat(((Decision.Refuse) d).message()).contains("held until a person resolves it", ResolveHint.TELL_THE_MODEL)
                .doesNotContain("journal resolve", "--applied", "java -jar");
    }

    @Test
    void theVerboseFormPutsTheOperatorsCommandInTheHoldMessage() {
        Decision d = ReentryRules.decide(state(Phase.UNKNOWN, 1, Effect.UNKNOWN, 0, -1), Kind.MONEY, false, false, "k", 0,
                ResolveHint.generic().withOperatorInAnswer(true));
        assertThat(((Decision.Refuse) d).message()).contains("journal resolve k --applied yes --note", "(or --applied no",
                "do not retry");
    }

    @Test
    void personalResolutionDecides() {
        assertThat(decide(state(Phase.RESOLVED_APPLIED, 1, Effect.YES, 0, -1), Kind.SEND, false, false))
                .isEqualTo(new Decision.Replay(-1, null, true));
        assertThat(decide(state(Phase.RESOLVED_NOT_APPLIED, 1, Effect.NO, 0, -1), Kind.SEND, false, false))
                .isEqualTo(new Decision.Run(2));
    }

    @Test
    void probeThatFoundNothingLetsTheBodyRun() {
        assertThat(decide(state(Phase.PROBED_ABSENT, 1, null, 0, -1), Kind.MONEY, false, true)).isEqualTo(new Decision.Run(2));
    }
}

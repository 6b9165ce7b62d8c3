package dev.effectful.core.reentry;

import dev.effectful.EffectKind;
import dev.effectful.runtime.engine.ApiWords;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journal's rules live on its enums ({@link Kind}, {@link Phase}, {@link RecordType}); every reader asks
 * them. These tests hold every constant to every rule and the rules to what the re-entry table decides, so a
 * constant added without its rule, or a rule that drifts from the table, fails here.
 */
class JournalRulesTest {

    private static final long NOW = 1_000_000L;

    @ParameterizedTest
    @EnumSource(EffectKind.class)
    void everyDeclaredKindHasAJournalKindWithItsRule(EffectKind declared) {
        Kind k = ApiWords.kind(declared);
        assertThat(k).isNotNull();
        assertThat(k.name()).isEqualTo(declared.name());
        assertThat(Kind.fromWord(k.word())).isSameAs(k);
    }

    @ParameterizedTest
    @EnumSource(value = EffectKind.class, names = "READ", mode = EnumSource.Mode.EXCLUDE)
    void aKindsRuleIsWhatTheTableDoesWithAnUnknownOutcome(EffectKind declared) {
        Kind k = ApiWords.kind(declared);
        for (boolean keyable : new boolean[] {false, true}) {
            for (boolean keySent : new boolean[] {false, true}) {
                for (boolean probe : new boolean[] {false, true}) {
                    IntentState unknown = new IntentState(Phase.UNKNOWN, 1, Effect.UNKNOWN, 0, -1, NOW - 10)
                            .withKeySent(keySent);
                    Decision d = ReentryRules.decide(unknown, k, keyable, probe, "k", NOW);
                    boolean held = d instanceof Decision.Refuse r && r.status() == OutcomeWord.UNKNOWN;
                    assertThat(held).as("%s keyable=%s keySent=%s probe=%s -> %s", declared, keyable, keySent, probe, d)
                            .isEqualTo(!k.settlesByItself(keyable || keySent, probe));
                    if (!probe) {
                        assertThat(d instanceof Decision.Run).isEqualTo(k.runsAgainAfterUnknown(keyable || keySent));
                    }
                }
            }
        }
    }

    @Test
    void onlyReadsAndIdempotentWritesRepeatHarmlessly() {
        assertThat(Arrays.stream(Kind.values()).filter(Kind::repeatIsHarmless))
                .containsExactlyInAnyOrder(Kind.READ, Kind.IDEMPOTENT);
    }

    @ParameterizedTest
    @EnumSource(value = Phase.class, names = {"AWAITING_APPROVAL", "APPROVED", "DENIED", "EXPIRED"},
            mode = EnumSource.Mode.EXCLUDE)
    void aPhaseIsUnresolvedExactlyWhenTheTableHoldsAMoneyCallWithoutProbeInIt(Phase p) {
        IntentState s = new IntentState(p, 1, p.unresolved() ? Effect.UNKNOWN : Effect.NO, 0, -1, NOW - 10);
        Decision d = ReentryRules.decide(s, Kind.MONEY, false, false, "k", NOW);
        boolean held = d instanceof Decision.Refuse r && r.status() == OutcomeWord.UNKNOWN;
        assertThat(held).as(p + " -> " + d).isEqualTo(p.unresolved());
        assertThat(s.isUnresolved()).isEqualTo(p.unresolved());
    }

    @ParameterizedTest
    @EnumSource(value = Phase.class, names = {"AWAITING_APPROVAL", "APPROVED", "DENIED", "EXPIRED"})
    void approvalPhasesAreListedApartNotAsUnresolved(Phase p) {
        assertThat(p.unresolved()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Phase.class)
    void everyPhaseHasTheWordTheStoreKeeps(Phase p) {
        assertThat(Phase.valueOf(p.word().toUpperCase(java.util.Locale.ROOT))).isSameAs(p);
    }

    @ParameterizedTest
    @EnumSource(RecordType.class)
    void aRecordTypeThatChangesNoStateIsNoIntentAndAgesOnly(RecordType t) {
        // dedup and refused records: retention may drop them with their files, and a host tells no store
        if (!t.movesState()) {
            assertThat(t.startsIntent()).as(t + " starts no intent").isFalse();
            assertThat(t.sharedWithFleet()).as(t + " is not shared with the fleet").isFalse();
        }
        assertThat(RecordType.ofWord(t.word())).contains(t);
    }
}

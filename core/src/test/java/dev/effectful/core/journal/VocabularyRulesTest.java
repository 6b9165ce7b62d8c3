package dev.effectful.core.journal;

import dev.effectful.core.reentry.Phase;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journal's vocabularies carry their rules on their constants; these are the rules as the public
 * contract and the re-entry table state them, pinned here so that a changed flag on one constant (a kind
 * that suddenly always runs, a verdict that lets the body run) fails in this module, where the constant is.
 * The followers (the CLI, the SQL, the console) are tied to these enums by their own modules' tests.
 */
class VocabularyRulesTest {

    @Test
    void kindsOnDiskKeepTheirCodeAndWord() {
        // the kinds a journal already holds keep their code and word; a new kind adds its own (CodesTest: unused)
        assertThat(Arrays.stream(Kind.values()).map(k -> k.code() + "=" + k.word()))
                .startsWith("1=read", "2=idempotent", "3=create", "4=send", "5=money", "6=destructive");
        for (Kind k : Kind.values()) {
            assertThat(Kind.fromWord(k.word())).isSameAs(k);
            assertThat(Kind.alwaysRuns(k.name())).isEqualTo(k.alwaysRuns());
        }
        assertThat(Kind.fromWord(null)).isNull();
        assertThat(Kind.fromWord("READ")).as("words are lower case on disk").isNull();
        assertThat(Kind.fromWord("refund")).isNull();
        assertThat(Kind.alwaysRuns(null)).isFalse();
        assertThat(Kind.alwaysRuns("read")).as("the constant's name, not the word").isFalse();
        assertThat(Kind.alwaysRuns("LOOKUP")).isFalse();
    }

    @Test
    void onlyReadAlwaysRunsAndOnlyReadAndIdempotentRepeatHarmlessly() {
        assertThat(only(Kind::alwaysRuns)).containsExactly(Kind.READ);
        assertThat(only(Kind::repeatIsHarmless)).containsExactly(Kind.READ, Kind.IDEMPOTENT);
    }

    @Test
    void anUnknownOutcomeSettlesByItselfOnlyWithAProbeAHarmlessRepeatOrAKey() {
        for (Kind k : Kind.values()) {
            for (boolean keyed : new boolean[] {false, true}) {
                assertThat(k.runsAgainAfterUnknown(keyed)).as("%s keyed=%s", k, keyed).isEqualTo(k.repeatIsHarmless() || keyed);
                assertThat(k.settlesByItself(keyed, true)).as("%s with a probe", k).isTrue();
                assertThat(k.settlesByItself(keyed, false)).as("%s keyed=%s without a probe", k, keyed)
                        .isEqualTo(k.repeatIsHarmless() || keyed);
            }
        }
        assertThat(Kind.MONEY.settlesByItself(false, false)).as("a charge nobody can check waits for a person").isFalse();
    }

    @Test
    void toolHintsFollowTheContractsTable() {
        assertThat(Kind.READ.toolHints()).isEqualTo(new Kind.ToolHints(true, null, null));
        assertThat(Kind.IDEMPOTENT.toolHints()).isEqualTo(new Kind.ToolHints(false, false, true));
        assertThat(Kind.CREATE.toolHints()).isEqualTo(new Kind.ToolHints(false, false, false));
        assertThat(Kind.SEND.toolHints()).isEqualTo(new Kind.ToolHints(false, false, false));
        assertThat(Kind.MONEY.toolHints()).isEqualTo(new Kind.ToolHints(false, true, false));
        assertThat(Kind.DESTRUCTIVE.toolHints()).isEqualTo(new Kind.ToolHints(false, true, false));
    }

    @Test
    void verdictsSayWhoGivesThemAndWhetherTheBodyRuns() {
        assertThat(Arrays.stream(Verdict.values()).map(Verdict::word)).containsExactly("approved", "denied", "expired");
        assertThat(Verdict.APPROVED.byPerson()).isTrue();
        assertThat(Verdict.DENIED.byPerson()).isTrue();
        assertThat(Verdict.EXPIRED.byPerson()).as("the clock, not a person").isFalse();
        assertThat(Verdict.APPROVED.letsBodyRun()).isTrue();
        assertThat(Verdict.DENIED.letsBodyRun()).isFalse();
        assertThat(Verdict.EXPIRED.letsBodyRun()).isFalse();
        assertThat(Verdict.APPROVED.effectApplied()).as("the body has yet to run: nothing is known").isNull();
        assertThat(Verdict.DENIED.effectApplied()).isEqualTo(Effect.NO);
        assertThat(Verdict.EXPIRED.effectApplied()).isEqualTo(Effect.NO);
        for (Verdict v : Verdict.values()) {
            assertThat(Verdict.fromWord(v.word())).isSameAs(v);
            assertThat(Phase.after(v).verdict()).isSameAs(v);
            assertThat(Phase.after(v).word()).isEqualTo(v.word());
        }
        assertThat(Verdict.fromWord(null)).isNull();
        assertThat(Verdict.fromWord("APPROVED")).isNull();
        assertThat(Verdict.fromWord("maybe")).isNull();
    }

    @Test
    void phasesSayWhichAreUnresolvedAndWhichSettledOk() {
        Set<Phase> unresolved = Arrays.stream(Phase.values()).filter(Phase::unresolved).collect(Collectors.toSet());
        assertThat(unresolved).containsExactlyInAnyOrder(Phase.INTENDED, Phase.UNKNOWN, Phase.PROBE_FAILED);
        Set<Phase> ok = Arrays.stream(Phase.values()).filter(Phase::settledOk).collect(Collectors.toSet());
        assertThat(ok).containsExactlyInAnyOrder(Phase.OK, Phase.RESOLVED_APPLIED);
        for (Phase p : Phase.values()) {
            assertThat(Phase.fromWord(p.word())).isSameAs(p);
            assertThat(p.word()).isEqualTo(p.name().toLowerCase(java.util.Locale.ROOT));
            boolean fromAVerdict = EnumSet.of(Phase.APPROVED, Phase.DENIED, Phase.EXPIRED).contains(p);
            assertThat(p.verdict() != null).as("%s comes from a verdict", p).isEqualTo(fromAVerdict);
        }
        assertThat(Phase.fromWord("settled")).isNull();
        assertThat(Phase.fromWord(null)).isNull();
    }

    @Test
    void theReentryDeclarationRoundTripsItsFourWords() {
        assertThat(new ReentryDeclaration(false, false).word()).isEqualTo("-");
        assertThat(new ReentryDeclaration(true, false).word()).isEqualTo("probe");
        assertThat(new ReentryDeclaration(false, true).word()).isEqualTo("keyable");
        assertThat(new ReentryDeclaration(true, true).word()).isEqualTo("probe keyable");
        for (boolean probe : new boolean[] {false, true}) {
            for (boolean keyable : new boolean[] {false, true}) {
                ReentryDeclaration d = new ReentryDeclaration(probe, keyable);
                assertThat(ReentryDeclaration.parse(d.word())).isEqualTo(d);
            }
        }
        assertThat(ReentryDeclaration.parse(null)).isNull();
        assertThat(ReentryDeclaration.parse("keyable probe")).as("order does not matter").isEqualTo(new ReentryDeclaration(true, true));
        assertThat(ReentryDeclaration.parse("probably")).as("a word is matched whole").isEqualTo(new ReentryDeclaration(false, false));
    }

    private static Set<Kind> only(java.util.function.Predicate<Kind> rule) {
        return Arrays.stream(Kind.values()).filter(rule).collect(Collectors.toCollection(() -> EnumSet.noneOf(Kind.class)));
    }
}

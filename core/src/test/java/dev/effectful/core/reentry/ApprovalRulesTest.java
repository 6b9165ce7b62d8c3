package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The approval rows of the re-entry table, as the pure decision and as the records that lead to each state:
 * one request per intent, a wait until the verdict, then run once, refuse for good, or expire.
 */
class ApprovalRulesTest {

    private static final long NOW = 10_000_000L;
    private static final long HOUR = 3_600_000L;
    private static final ReentryRules.ApprovalRule REQUIRED = new ReentryRules.ApprovalRule(true, HOUR);

    private static Decision decide(IntentState s, Kind kind, ReentryRules.ApprovalRule rule, long now) {
        return ReentryRules.decide(s, kind, false, false, "k", now, ResolveHint.generic(), rule);
    }

    /** The state the index folds these records into, as it does on a restart's replay. */
    private static IntentState fold(JournalRecord... records) {
        IntentState s = null;
        for (int i = 0; i < records.length; i++) {
            s = StateTransitions.next(s, i, records[i]);
        }
        return s;
    }

    private static JournalRecord requested(long at) {
        return JournalRecord.of(RecordType.APPROVAL_REQUESTED).intentKey("k").kind(Kind.MONEY).started(at).build();
    }

    private static JournalRecord verdict(String verdict, String note) {
        return JournalRecord.of(RecordType.APPROVAL).intentKey("k").kind(Kind.MONEY).started(NOW).verdict(verdict)
                .by("bob").note(note).build();
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = "READ", mode = EnumSource.Mode.EXCLUDE)
    void theFirstCallRequestsApprovalAndRunsNothing(Kind kind) {
        Decision d = decide(null, kind, REQUIRED, NOW);
        assertThat(d).isInstanceOf(Decision.RequestApproval.class);
        Decision.RequestApproval r = (Decision.RequestApproval) d;
        assertThat(r.retryAfterS()).isBetween(1L, 60L);
        assertThat(r.message()).contains("a person must approve this first");
    }

    @Test
    void withoutTheRuleAFirstCallRunsAndReadsNeverWait() {
        assertThat(decide(null, Kind.MONEY, ReentryRules.ApprovalRule.NONE, NOW)).isEqualTo(new Decision.Run(1));
        assertThat(decide(null, Kind.READ, REQUIRED, NOW)).isEqualTo(new Decision.Run(1));
    }

    @Test
    void aRequestedIntentWaitsWithoutASecondRequestUntilItsTimeout() {
        IntentState s = fold(requested(NOW - 5_000), JournalRecord.of(RecordType.REFUSED).intentKey("k")
                .kind(Kind.MONEY).started(NOW - 1_000).outcome(OutcomeWord.RETRYABLE).build());
        assertThat(s.phase()).isEqualTo(Phase.AWAITING_APPROVAL);
        assertThat(s.isUnresolved()).as("listed apart from unknown effects").isFalse();
        Decision d = decide(s, Kind.MONEY, REQUIRED, NOW);
        assertThat(d).isInstanceOf(Decision.AwaitApproval.class);
        assertThat(((Decision.AwaitApproval) d).message()).contains("requested 5 s ago", "still pending");
        // the configuration was changed since: a request made stays the intent's, and still waits
        assertThat(decide(s, Kind.MONEY, new ReentryRules.ApprovalRule(false, HOUR), NOW))
                .isInstanceOf(Decision.AwaitApproval.class);
        // a refusal ages the intent, not the request: expiry counts from the request
        Decision late = decide(s, Kind.MONEY, REQUIRED, NOW - 5_000 + HOUR);
        assertThat(late).isInstanceOf(Decision.ExpireApproval.class);
        assertThat(((Decision.ExpireApproval) late).message()).contains("expired", "1h");
    }

    @Test
    void theWaitIsNeverLongerThanWhatIsLeftBeforeTheExpiry() {
        IntentState s = fold(requested(NOW - HOUR + 3_000));
        Decision.AwaitApproval d = (Decision.AwaitApproval) decide(s, Kind.SEND, REQUIRED, NOW);
        assertThat(d.retryAfterS()).isEqualTo(3L);
    }

    @Test
    void approvedRunsTheBodyOnceThenTheUsualTableTakesOver() {
        IntentState approved = fold(requested(NOW - 5_000), verdict("approved", "fine"));
        assertThat(approved.phase()).isEqualTo(Phase.APPROVED);
        assertThat(decide(approved, Kind.MONEY, REQUIRED, NOW)).isEqualTo(new Decision.Run(1));
        JournalRecord intent = JournalRecord.of(RecordType.INTENT).intentKey("k").kind(Kind.MONEY).attempt(1)
                .started(NOW).build();
        JournalRecord ok = JournalRecord.of(RecordType.OUTCOME).intentKey("k").kind(Kind.MONEY).attempt(1)
                .started(NOW).outcome(OutcomeWord.OK).effectApplied(Effect.YES).result("\"done\"").build();
        IntentState done = StateTransitions.next(StateTransitions.next(approved, 2, intent), 3, ok);
        assertThat(decide(done, Kind.MONEY, REQUIRED, NOW)).as("a repeat gets the stored result")
                .isEqualTo(new Decision.Replay(3));
        IntentState crashed = StateTransitions.next(approved, 2, intent);
        assertThat(decide(crashed, Kind.MONEY, REQUIRED, NOW)).as("an approved call that died is held, not"
                + " asked for approval again").isInstanceOf(Decision.Refuse.class);
    }

    @Test
    void deniedAndExpiredAreRefusedForGoodWithTheNote() {
        IntentState denied = fold(requested(NOW - 5_000), verdict("denied", "no budget"));
        assertThat(denied.phase()).isEqualTo(Phase.DENIED);
        assertThat(decide(denied, Kind.MONEY, REQUIRED, NOW)).isEqualTo(new Decision.Denied(1, null, false));
        assertThat(ReentryRules.deniedMessage(false, "no budget")).contains("denied", "no budget", "do not retry");
        IntentState expired = fold(requested(NOW - 5_000), verdict("expired", null));
        assertThat(decide(expired, Kind.MONEY, REQUIRED, NOW)).isEqualTo(new Decision.Denied(1, null, true));
        assertThat(ReentryRules.deniedMessage(true, null)).contains("expired");
        // a shared store carries the note itself
        IntentState fromStore = new IntentState(Phase.DENIED, 0, Effect.NO, 0, -1, NOW, "no budget");
        assertThat(decide(fromStore, Kind.MONEY, REQUIRED, NOW)).isEqualTo(new Decision.Denied(-1, "no budget", false));
        // a verdict word this reader does not know denies: never a run on a guess
        assertThat(StateTransitions.approvalPhase("maybe")).isEqualTo(Phase.DENIED);
    }
}

package dev.effectful.core.reentry;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Retention on a real journal with one cycle file per second, so whole files expire within the test. */
class RetentionSweeperTest {

    @TempDir
    Path tmp;

    private static JournalRecord intent(String key) {
        return JournalRecord.of(RecordType.INTENT).task("t").call("send").kind(Kind.SEND).intentKey(key).attempt(1)
                .attemptId("t-" + key + "-a1").started(System.currentTimeMillis()).build();
    }

    private static JournalRecord ok(String key) {
        return JournalRecord.of(RecordType.OUTCOME).task("t").call("send").kind(Kind.SEND).intentKey(key).attempt(1)
                .attemptId("t-" + key + "-a1").started(System.currentTimeMillis()).outcome(OutcomeWord.OK).effectApplied(Effect.YES)
                .result("\"done\"").durationMs(0L).build();
    }

    /** The agent's index over what the test appends. */
    private final LocalIntentIndex index = new LocalIntentIndex();

    /** Appends {@code records} in order, each folded into {@link #index} as the agent's writer does. */
    private void append(ChronicleJournal j, JournalRecord... records) {
        for (JournalRecord r : records) {
            index.apply(j.append(r), r);
        }
    }

    /** The journal the tests write, with one cycle file per second. */
    private ChronicleJournal secondly() throws IOException {
        return ChronicleJournal.openWriter(tmp.resolve("j"), false, "secondly");
    }

    /**
     * What a restart rebuilds from what retention left: the journal replayed into {@code replayed}; returns
     * the records of {@code key} that are still there.
     */
    private List<JournalRecord> replayAfterRestart(LocalIntentIndex replayed, String key) throws IOException {
        List<JournalRecord> kept = new ArrayList<>();
        try (ChronicleJournal j = ChronicleJournal.openReader(tmp.resolve("j"))) {
            j.replay((i, rec) -> {
                replayed.apply(i, rec);
                if (key.equals(rec.intentKey())) {
                    kept.add(rec);
                }
            });
        }
        return kept;
    }

    /** Waits (bounded) for the wall clock to enter the next cycle, so the next append starts a new file. */
    private static int nextCycle(ChronicleJournal j) throws InterruptedException {
        int now = j.currentCycle();
        long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (j.currentCycle() == now && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertThat(j.currentCycle()).isGreaterThan(now);
        return j.currentCycle();
    }

    private long cycleFiles() throws Exception {
        try (Stream<Path> s = Files.list(tmp.resolve("j"))) {
            return s.filter(p -> p.toString().endsWith(".cq4")).count();
        }
    }

    @Test
    void deletesExpiredCyclesButNeverOneAnUnresolvedIntentOrAYoungKeyNeeds() throws Exception {
        try (ChronicleJournal j = secondly()) {
            // start at a cycle boundary, so each pair of appends below lands in one one-second cycle
            int oldCycle = nextCycle(j);
            append(j, intent("old"), ok("old"));
            int unresolvedCycle = nextCycle(j);
            append(j, intent("unresolved")); // the process "died": no outcome
            int sharedCycle = nextCycle(j);
            append(j, intent("refreshed"), ok("refreshed"));
            // a later record of the same key keeps it remembered, so its older cycle must stay
            int youngCycle = nextCycle(j);
            append(j, JournalRecord.of(RecordType.DEDUP).task("t").call("send").kind(Kind.SEND)
                    .intentKey("refreshed").started(System.currentTimeMillis()).build());
            nextCycle(j);
            append(j, intent("newest"));
            assertThat(cycleFiles()).isEqualTo(5);

            // the window ends where the young cycle starts: the first three cycles have expired
            long cutoff = j.cycleEndMillis(sharedCycle);
            RetentionSweeper sweeper = new RetentionSweeper(j, index, Duration.ZERO, () -> cutoff);
            RetentionSweeper.Result r = sweeper.sweep();

            assertThat(r).isEqualTo(new RetentionSweeper.Result(1, 1, 2));
            assertThat(index.get("old")).isEmpty();
            assertThat(index.get("unresolved")).get().extracting(IntentState::phase).isEqualTo(Phase.INTENDED);
            assertThat(index.get("refreshed")).get().extracting(IntentState::phase).isEqualTo(Phase.OK);
            assertThat(j.cycles()).doesNotContain(oldCycle).contains(unresolvedCycle, sharedCycle, youngCycle);
            assertThat(cycleFiles()).isEqualTo(4);

            List<String> keys = new ArrayList<>();
            j.replay((i, rec) -> keys.add(rec.intentKey()));
            assertThat(keys).doesNotContain("old").contains("unresolved", "refreshed", "newest");
            assertThat(j.read(index.get("refreshed").orElseThrow().resultIndex())).get()
                    .extracting(JournalRecord::result).isEqualTo("\"done\"");
            // still writable after files went away under it
            append(j, intent("after"));

            // a second sweep finds nothing more to do
            assertThat(sweeper.sweep()).isEqualTo(new RetentionSweeper.Result(0, 0, 2));
        }
    }

    private static JournalRecord unknown(String key) {
        return JournalRecord.of(RecordType.OUTCOME).task("t").call("send").kind(Kind.SEND).intentKey(key).attempt(1)
                .attemptId("t-" + key + "-a1").started(System.currentTimeMillis()).outcome(OutcomeWord.UNKNOWN)
                .effectApplied(Effect.UNKNOWN).durationMs(0L).build();
    }

    private static JournalRecord refused(String key) {
        return JournalRecord.of(RecordType.REFUSED).task("t").call("send").kind(Kind.SEND).intentKey(key)
                .started(System.currentTimeMillis()).outcome(OutcomeWord.UNKNOWN).effectApplied(Effect.UNKNOWN)
                .message("held until a person resolves it").build();
    }

    @Test
    void aHeldIntentAskedAgainKeepsItsEvidenceButNotEveryCycleItWasRefusedIn() throws Exception {
        try (ChronicleJournal j = secondly()) {
            int heldCycle = nextCycle(j);
            append(j, intent("held"), unknown("held"));
            // the agent loop asks again and again: each answer is a refused record in a later cycle
            int refusedOnce = nextCycle(j);
            append(j, refused("held"));
            int refusedTwice = nextCycle(j);
            append(j, refused("held"));
            long cutoff = j.cycleEndMillis(refusedTwice);
            nextCycle(j);
            append(j, intent("newest"));

            RetentionSweeper.Result r = new RetentionSweeper(j, index, Duration.ZERO, () -> cutoff).sweep();

            assertThat(j.cycles()).contains(heldCycle).doesNotContain(refusedOnce, refusedTwice);
            assertThat(r).isEqualTo(new RetentionSweeper.Result(0, 2, 1));
            assertThat(index.get("held")).get().extracting(IntentState::phase).isEqualTo(Phase.UNKNOWN);
        }
        // what a restart rebuilds from what is left: still held, with its intent record
        LocalIntentIndex replayed = new LocalIntentIndex();
        assertThat(replayAfterRestart(replayed, "held")).extracting(JournalRecord::type)
                .containsExactly(RecordType.INTENT, RecordType.OUTCOME);
        assertThat(replayed.get("held")).get().extracting(IntentState::phase).isEqualTo(Phase.UNKNOWN);
    }

    @Test
    void theCurrentCycleIsNeverDeletedEvenWhenEverythingIsExpired() throws Exception {
        try (ChronicleJournal j = secondly()) {
            append(j, intent("k"), ok("k"));
            RetentionSweeper.Result r = new RetentionSweeper(j, index, Duration.ZERO,
                    () -> System.currentTimeMillis() + 3_600_000).sweep();
            assertThat(r.keysForgotten()).isEqualTo(1);
            assertThat(r.filesDeleted()).isZero();
            assertThat(cycleFiles()).isEqualTo(1);
        }
    }

    @Test
    void aCallThatEndedInADeletedFileKeepsItsOutcomeSoItIsNeverTakenForACrash() throws Exception {
        int keptCycle;
        int outcomeCycle;
        try (ChronicleJournal j = secondly()) {
            keptCycle = nextCycle(j);
            append(j, intent("held"), unknown("held"));
            // a call starts at the very end of the file the held intent keeps, and ends in the next one
            append(j, intent("crossing"));
            outcomeCycle = nextCycle(j);
            append(j, ok("crossing"));
            long cutoff = j.cycleEndMillis(outcomeCycle);
            nextCycle(j);
            append(j, intent("newest"));

            RetentionSweeper.Result r = new RetentionSweeper(j, index, Duration.ZERO, () -> cutoff).sweep();

            assertThat(j.cycles()).contains(keptCycle).doesNotContain(outcomeCycle);
            assertThat(r.filesDeleted()).isEqualTo(1);
            assertThat(index.get("crossing")).as("forgotten: it was done, long ago").isEmpty();
        }
        LocalIntentIndex replayed = new LocalIntentIndex();
        List<JournalRecord> crossing = replayAfterRestart(replayed, "crossing");
        assertThat(replayed.get("crossing")).as("a restart must not hold a finished call for a person").get()
                .extracting(IntentState::phase).isEqualTo(Phase.OK);
        assertThat(crossing).extracting(JournalRecord::type).containsExactly(RecordType.INTENT, RecordType.OUTCOME);
        assertThat(crossing.get(1).message()).contains("carried over by retention");
        assertThat(crossing.get(1).result()).isEqualTo("\"done\"");
        assertThat(replayed.get("held")).get().extracting(IntentState::phase).isEqualTo(Phase.UNKNOWN);
    }
}

package dev.effectful.runtime.engine;

import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.reentry.IndexSnapshot;
import dev.effectful.core.reentry.LocalIntentIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** A restart from an index snapshot plus the journal after it knows exactly what a full replay knows. */
class IndexRebuildTest {

    @TempDir
    Path tmp;

    /** One step of some intent's history, as the engine would journal it. */
    private static JournalRecord step(Random rnd, String key, int attempt, long now) {
        JournalRecord.Builder b;
        switch (rnd.nextInt(6)) {
            case 0, 1 -> b = JournalRecord.of(RecordType.INTENT).attempt(attempt).args("{}");
            case 2, 3 -> {
                OutcomeWord outcome = OutcomeWord.values()[rnd.nextInt(4)];
                b = JournalRecord.of(RecordType.OUTCOME).attempt(attempt).outcome(outcome)
                        .effectApplied(outcome == OutcomeWord.OK ? Effect.YES : outcome == OutcomeWord.UNKNOWN ? Effect.UNKNOWN : Effect.NO)
                        .durationMs((long) rnd.nextInt(50));
                if (outcome == OutcomeWord.OK && rnd.nextBoolean()) {
                    b.result("\"r" + rnd.nextInt(100) + "\"");
                }
                if (outcome == OutcomeWord.RETRYABLE && rnd.nextBoolean()) {
                    b.retryAfterS((long) rnd.nextInt(60));
                }
            }
            case 4 -> b = JournalRecord.of(RecordType.PROBE).attempt(attempt)
                    .probe(ProbeResult.values()[rnd.nextInt(3)]).result(rnd.nextBoolean() ? "1" : null);
            default -> b = JournalRecord.of(RecordType.RESOLUTION).effectApplied(rnd.nextBoolean() ? Effect.YES : Effect.NO);
        }
        return b.intentKey(key).task("t").call("send").kind(Kind.SEND).started(now).build();
    }

    private static String key(int i) {
        return String.format("%064x", 0xabcdefL * (i + 1));
    }

    private static void assertSameKnowledge(LocalIntentIndex rebuilt, LocalIntentIndex full, int keys) {
        assertThat(rebuilt.size()).isEqualTo(full.size());
        for (int i = 0; i < keys; i++) {
            assertThat(rebuilt.get(key(i))).as("key %d", i).isEqualTo(full.get(key(i)));
        }
    }

    private static LocalIntentIndex fullReplay(Path dir) throws Exception {
        LocalIntentIndex full = new LocalIntentIndex();
        try (ChronicleJournal j = ChronicleJournal.openReader(dir)) {
            j.replayForIndex(full::apply);
        }
        return full;
    }

    @Test
    void aSnapshotTakenMidwayPlusTheTailEqualsAFullReplay() throws Exception {
        Path dir = tmp.resolve("j");
        Random rnd = new Random(20261130);
        int keys = 300;
        int total = 6000;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            JournalAccess access = JournalAccess.of(journal);
            LocalIntentIndex live = new LocalIntentIndex();
            IndexCheckpoints checkpoints = new IndexCheckpoints(journal, access, live, 0);
            for (int n = 0; n < total; n++) {
                access.appendAndApply(step(rnd, key(rnd.nextInt(keys)), 1 + n / 1000, 1_000L * n), live);
                if (n == total * 6 / 10) {
                    checkpoints.writeNow();
                }
            }
            // not closed: close() is a clean stop, which writes its own snapshot; this test is about the one midway
        }
        LocalIntentIndex rebuilt = new LocalIntentIndex();
        long replayed;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            replayed = EngineFactory.rebuild(journal, rebuilt);
        }
        assertThat(replayed).as("only the tail after the snapshot is replayed").isEqualTo(total - (total * 6 / 10) - 1);
        assertSameKnowledge(rebuilt, fullReplay(dir), keys);
    }

    @Test
    void snapshotsTakenWhileCallsGoOnStillLoseNothing() throws Exception {
        Path dir = tmp.resolve("j");
        int keys = 400;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            JournalAccess access = JournalAccess.of(journal);
            LocalIntentIndex live = new LocalIntentIndex();
            IndexCheckpoints checkpoints = new IndexCheckpoints(journal, access, live, 0);
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int half = t;
                Thread w = new Thread(() -> {
                    Random rnd = new Random(half);
                    for (int n = 0; n < 20_000 && !stop.get(); n++) {
                        // each key is written by one thread only, as the in-flight guard ensures
                        int k = 2 * rnd.nextInt(keys / 2) + half;
                        access.appendAndApply(step(rnd, key(k), 1 + n / 5000, n), live);
                    }
                });
                writers.add(w);
                w.start();
            }
            int snapshots = 0;
            while (writers.stream().anyMatch(Thread::isAlive)) {
                checkpoints.writeNow();
                snapshots++;
            }
            for (Thread w : writers) {
                w.join(60_000);
            }
            // not closed (a clean stop writes a snapshot of its own): the last one taken while the writers ran counts
            assertThat(snapshots).as("snapshots written while the writers ran").isGreaterThan(1);
        }
        LocalIntentIndex rebuilt = new LocalIntentIndex();
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            EngineFactory.rebuild(journal, rebuilt);
        }
        assertSameKnowledge(rebuilt, fullReplay(dir), keys);
    }

    @Test
    void aCleanStopLeavesASnapshotSoTheRestartReplaysNothing() throws Exception {
        Path dir = tmp.resolve("j");
        Random rnd = new Random(20261207);
        int keys = 200;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            JournalAccess access = JournalAccess.of(journal);
            LocalIntentIndex live = new LocalIntentIndex();
            IndexCheckpoints checkpoints = new IndexCheckpoints(journal, access, live, 0).start();
            for (int n = 0; n < 3_000; n++) {
                access.appendAndApply(step(rnd, key(rnd.nextInt(keys)), 1 + n / 1000, 1_000L * n), live);
            }
            checkpoints.close(); // the engine closed: a clean stop
            checkpoints.close(); // and again: nothing more
        }
        LocalIntentIndex rebuilt = new LocalIntentIndex();
        long replayed;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            replayed = EngineFactory.rebuild(journal, rebuilt);
        }
        assertThat(replayed).as("the stop's snapshot covers the whole journal").isZero();
        assertSameKnowledge(rebuilt, fullReplay(dir), keys);
    }

    @Test
    void aStopWithLittleUncoveredWritesNoSnapshot() throws Exception {
        Path dir = tmp.resolve("j");
        Random rnd = new Random(7);
        int few = (int) IndexCheckpoints.AT_STOP_RECORDS - 1;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            JournalAccess access = JournalAccess.of(journal);
            LocalIntentIndex live = new LocalIntentIndex();
            IndexCheckpoints checkpoints = new IndexCheckpoints(journal, access, live, 0);
            for (int n = 0; n < few; n++) {
                access.appendAndApply(step(rnd, key(rnd.nextInt(50)), 1, 1_000L * n), live);
            }
            checkpoints.close();
        }
        long replayed;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            replayed = EngineFactory.rebuild(journal, new LocalIntentIndex());
        }
        assertThat(replayed).as("replaying so few is faster than writing the table at every stop").isEqualTo(few);
    }

    /** Our keys: 32 hex digits, the ones the table holds. */
    private static String tableKey(int i) {
        return String.format("%032x", 0x5deece66dL * (i + 1));
    }

    @Test
    void snapshotsTakenWhileTheTableGrowsUnderThreeWritersStillLoseNothing() throws Exception {
        Path dir = tmp.resolve("j");
        int perWriter = 12_000;
        int writersCount = 3;
        int keys = perWriter * writersCount;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            JournalAccess access = JournalAccess.of(journal);
            LocalIntentIndex live = LocalIntentIndex.inDirectory(dir);
            IndexCheckpoints checkpoints = new IndexCheckpoints(journal, access, live, 0);
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < writersCount; t++) {
                int me = t;
                Thread w = new Thread(() -> {
                    Random rnd = new Random(me);
                    for (int n = 0; n < 40_000; n++) {
                        // new keys keep arriving (the table grows from its smallest size while snapshots
                        // are copied), old ones are written again; each key by one thread only
                        int reach = Math.min(perWriter, 1 + n / 3);
                        int k = writersCount * rnd.nextInt(reach) + me;
                        access.appendAndApply(step(rnd, tableKey(k), 1 + n / 10_000, n), live);
                    }
                });
                writers.add(w);
                w.start();
            }
            int snapshots = 0;
            while (writers.stream().anyMatch(Thread::isAlive)) {
                int slotsBefore = live.tableSlots();
                checkpoints.writeNow();
                snapshots++;
                if (live.tableSlots() != slotsBefore) {
                    // the table grew during this checkpoint (before its copy began, or while it was made)
                    Files.copy(IndexSnapshot.file(dir), tmp.resolve("grew-" + snapshots));
                }
            }
            for (Thread w : writers) {
                w.join(120_000);
            }
            checkpoints.close();
            assertThat(snapshots).as("snapshots written while the writers ran").isGreaterThan(2);
            Files.copy(IndexSnapshot.file(dir), tmp.resolve("last"));
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no table file is left behind")
                    .noneMatch(n -> n.startsWith("index.table"));
        }
        LocalIntentIndex full = fullReplay(dir);
        List<Path> saved;
        try (var list = Files.list(tmp)) {
            saved = list.filter(p -> p.getFileName().toString().startsWith("grew-") || p.endsWith("last")).toList();
        }
        assertThat(saved).as("snapshots copied while the table grew, and the last").hasSizeGreaterThan(1);
        for (Path snapshot : saved) {
            Files.copy(snapshot, IndexSnapshot.file(dir), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            LocalIntentIndex rebuilt = LocalIntentIndex.inDirectory(dir);
            long replayed;
            try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
                replayed = EngineFactory.rebuild(journal, rebuilt);
            }
            assertThat(replayed).as("%s was used", snapshot.getFileName()).isLessThan(120_000);
            assertThat(rebuilt.size()).as("from %s", snapshot.getFileName()).isEqualTo(full.size());
            for (int i = 0; i < keys; i++) {
                assertThat(rebuilt.get(tableKey(i))).as("key %d from %s", i, snapshot.getFileName())
                        .isEqualTo(full.get(tableKey(i)));
            }
        }
    }

    @Test
    void aSnapshotFromAnotherJournalIsIgnoredAndTheWholeJournalReplayed() throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        Random rnd = new Random(7);
        int keys = 50;
        for (Path dir : List.of(a, b)) {
            try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
                JournalAccess access = JournalAccess.of(journal);
                LocalIntentIndex live = new LocalIntentIndex();
                for (int n = 0; n < 500; n++) {
                    access.appendAndApply(step(rnd, key(rnd.nextInt(keys)), 1, n), live);
                }
                new IndexCheckpoints(journal, access, live, 0).writeNow();
            }
        }
        // b's records differ from a's: a's snapshot must not be believed there
        Files.copy(IndexSnapshot.file(a), IndexSnapshot.file(b), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        LocalIntentIndex rebuilt = new LocalIntentIndex();
        long replayed;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(b, false, null, null)) {
            replayed = EngineFactory.rebuild(journal, rebuilt);
        }
        assertThat(replayed).isEqualTo(500);
        assertSameKnowledge(rebuilt, fullReplay(b), keys);
    }
}

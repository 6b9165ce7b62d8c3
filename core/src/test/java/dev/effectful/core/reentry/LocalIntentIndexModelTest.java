package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table-backed index against the plain map it replaced, as a model: random journal records on
 * a pool of keys (ours, 32 hex digits, and a few of other text), retention sweeps, snapshots read
 * back into a fresh index; after every step both know exactly the same. Starts at the smallest
 * table so it grows, and forgets in bulk so tombstones pile up and are rehashed away.
 */
class LocalIntentIndexModelTest {

    @TempDir
    Path dir;

    /** The index as it was: a map, and the same transitions. */
    private static final class Model {
        final Map<String, IntentState> states = new HashMap<>();

        void apply(long index, JournalRecord r) {
            if (StateTransitions.agesOnly(r)) {
                states.computeIfPresent(r.intentKey(), (k, s) -> StateTransitions.next(s, index, r));
            } else {
                states.compute(r.intentKey(), (k, s) -> StateTransitions.next(s, index, r));
            }
        }

        int forgetOlderThan(long cutoff) {
            int before = states.size();
            states.values().removeIf(s -> s.lastMillis() < cutoff && !s.isUnresolved());
            return before - states.size();
        }
    }

    static String key(Random rnd, int pool) {
        int i = rnd.nextInt(pool);
        if (i % 97 == 0) {
            return "text key " + i; // not ours: the fallback map
        }
        // neighbours in the pool share their high half, so runs collide in the table
        return String.format("%016x%016x", (long) i >>> 3, (long) i * 0x9E3779B97F4A7C15L);
    }

    static JournalRecord record(Random rnd, String key, long now) {
        JournalRecord.Builder b = switch (rnd.nextInt(8)) {
            case 0, 1 -> JournalRecord.of(RecordType.INTENT).attempt(1 + rnd.nextInt(4));
            case 2, 3 -> {
                OutcomeWord o = OutcomeWord.values()[rnd.nextInt(4)];
                JournalRecord.Builder ob = JournalRecord.of(RecordType.OUTCOME).attempt(1 + rnd.nextInt(4)).outcome(o)
                        .effectApplied(Effect.values()[rnd.nextInt(4)]).durationMs((long) rnd.nextInt(40));
                if (rnd.nextBoolean()) {
                    ob.result("\"v\"");
                }
                if (rnd.nextInt(4) == 0) {
                    ob.retryAfterS((long) rnd.nextInt(100));
                }
                yield ob;
            }
            case 4 -> JournalRecord.of(RecordType.PROBE).probe(rnd.nextInt(4) == 0 ? null : ProbeResult.values()[rnd.nextInt(3)])
                    .result(rnd.nextBoolean() ? "1" : null);
            case 5 -> JournalRecord.of(RecordType.RESOLUTION).effectApplied(rnd.nextBoolean() ? Effect.YES : Effect.NO);
            case 6 -> JournalRecord.of(RecordType.DEDUP);
            default -> JournalRecord.of(RecordType.REFUSED).outcome(OutcomeWord.RETRYABLE).effectApplied(Effect.NO);
        };
        return b.intentKey(key).started(now).build();
    }

    private static void assertSame(LocalIntentIndex index, Model model, int pool, String when) {
        assertThat(index.size()).as("size %s", when).isEqualTo(model.states.size());
        for (Map.Entry<String, IntentState> e : model.states.entrySet()) {
            assertThat(index.get(e.getKey())).as("%s %s", e.getKey(), when).contains(e.getValue());
        }
        Random probe = new Random(pool);
        for (int i = 0; i < 200; i++) {
            String k = key(probe, pool * 4);
            assertThat(index.get(k).orElse(null)).as("%s %s", k, when).isEqualTo(model.states.get(k));
        }
        assertThat(index.unresolvedCount()).as("unresolved %s", when)
                .isEqualTo(model.states.values().stream().filter(IntentState::isUnresolved).count());
    }

    @ParameterizedTest
    @CsvSource({"1, 16", "2, 16", "3, 1", "20261202, 16", "4, 4"})
    void knowsWhatAPlainMapKnowsThroughGrowthDeletionAndSnapshots(long seed, int stripes) throws Exception {
        Random rnd = new Random(seed);
        int pool = 6000;
        Path journalDir = Files.createDirectories(dir.resolve("j" + seed));
        LocalIntentIndex index = new LocalIntentIndex(journalDir, IntentTable.MIN_SLOTS, stripes);
        Model model = new Model();
        long now = 1_000_000;
        long journalIndex = 0;
        int maxSlots = 0;
        for (int step = 0; step < 60_000; step++) {
            now += rnd.nextInt(3);
            int op = rnd.nextInt(10_000);
            if (op < 9_990) {
                JournalRecord r = record(rnd, key(rnd, pool), now);
                index.apply(++journalIndex, r);
                model.apply(journalIndex, r);
            } else if (op < 9_996) {
                // forget a random share of the past: many tombstones at once
                long cutoff = now - rnd.nextInt(40_000);
                assertThat(index.forgetOlderThan(cutoff)).as("forgotten at step %d", step).isEqualTo(model.forgetOlderThan(cutoff));
            } else {
                index.writeSnapshot(journalDir, journalIndex, "k");
                // a new index of the default stripe count takes the snapshot's count, whatever it was
                LocalIntentIndex back = new LocalIntentIndex(journalDir, IntentTable.MIN_SLOTS);
                assertThat(back.loadSnapshot(journalDir)).hasValueSatisfying(c -> {
                    assertThat(c.entries()).isEqualTo(model.states.size());
                });
                assertThat(back.stripeCount()).isEqualTo(stripes);
                // the open intents' own file, from the same pass: exactly the model's intents that are not settled
                Map<String, IntentState> open = new java.util.HashMap<>();
                OpenIntents written = OpenIntents.read(journalDir).orElseThrow();
                written.forEach(open::put);
                assertThat(written.covers().lastIndex()).isEqualTo(journalIndex);
                assertThat(open).as("open intents at step %d", step).isEqualTo(model.states.entrySet().stream()
                        .filter(e -> e.getValue().phase().open())
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
                assertSame(back, model, pool, "read back from the snapshot at step " + step);
                index = back; // go on from the loaded one: its table must take updates like any other
            }
            maxSlots = Math.max(maxSlots, index.tableSlots());
            if (step % 5_000 == 0) {
                assertSame(index, model, pool, "at step " + step);
            }
        }
        assertSame(index, model, pool, "at the end");
        assertThat(maxSlots).as("the tables grew from their smallest size").isGreaterThanOrEqualTo(stripes * IntentTable.MIN_SLOTS * 2);
        // a stripe may be preparing its next table in the background right now: that file lives for the
        // instant between its creation and its unlinking, so the listing settles within a bound
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
            try (var files = Files.list(journalDir)) {
                assertThat(files.map(f -> f.getFileName().toString()))
                        .as("table files are unlinked once mapped: nothing but the snapshot and its open intents is left")
                        .containsExactlyInAnyOrder(IndexSnapshot.FILE_NAME, OpenIntents.FILE_NAME);
            }
        });
        assertThat(Files.getPosixFilePermissions(IndexSnapshot.file(journalDir)))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(journalDir.resolve(OpenIntents.FILE_NAME)))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    /**
     * A checkpoint takes the table, then copies it while calls go on; a call that needs room grows
     * the index meanwhile. The copy must still hold every key of the covered journal: growth makes
     * a new table and leaves the one being copied whole. Here the copy is made after the growth, of
     * the table taken before it (the longest such a copy can lag).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 16})
    void aSnapshotOfTheTableTakenBeforeAGrowthHoldsEveryKeyItCovers(int stripes) throws Exception {
        LocalIntentIndex index = new LocalIntentIndex(dir, IntentTable.MIN_SLOTS, stripes);
        Random rnd = new Random(11);
        java.util.List<JournalRecord> journal = new java.util.ArrayList<>();
        for (int i = 0; i < 700 * stripes; i++) {
            journal.add(record(rnd, String.format("%032x", 1000L + i), i));
            index.apply(journal.size(), journal.get(journal.size() - 1));
        }
        IntentTable[] taken = index.currentTables();
        int takenSlots = java.util.Arrays.stream(taken).mapToInt(t -> t.slots).sum();
        int covered = journal.size();
        for (int i = 0; i < 3000 * stripes; i++) {
            String key = String.format("%032x", 1000L + rnd.nextInt(2500 * stripes));
            journal.add(record(rnd, key, 700 + i));
            index.apply(journal.size(), journal.get(journal.size() - 1));
        }
        assertThat(index.tableSlots()).as("grew after the tables were taken").isGreaterThan(takenSlots);
        IndexSnapshot.write(dir, covered, "k", java.util.List.of(taken), Map.of());

        LocalIntentIndex restarted = new LocalIntentIndex(dir, IntentTable.MIN_SLOTS);
        assertThat(restarted.loadSnapshot(dir)).isPresent();
        Model model = new Model();
        for (int i = 0; i < journal.size(); i++) {
            if (i >= covered) {
                restarted.apply(i + 1, journal.get(i));
            }
            model.apply(i + 1, journal.get(i));
        }
        assertSame(restarted, model, 2500 * stripes, "after the restart");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void tombstonesAreRehashedAwayAndTheTableShrinksBackToItsKeys(int withSnapshotBetween) throws Exception {
        LocalIntentIndex index = new LocalIntentIndex(dir, IntentTable.MIN_SLOTS);
        Model model = new Model();
        Random rnd = new Random(5);
        long i = 0;
        for (int round = 0; round < 30; round++) {
            // a new generation of keys each round, the older ones forgotten
            for (int k = 0; k < 2_000; k++) {
                JournalRecord r = JournalRecord.of(RecordType.OUTCOME).outcome(OutcomeWord.OK).effectApplied(Effect.YES)
                        .intentKey(String.format("%016x%016x", round, rnd.nextLong())).started(round * 1_000L).build();
                index.apply(++i, r);
                model.apply(i, r);
            }
            index.forgetOlderThan(round * 1_000L);
            model.forgetOlderThan(round * 1_000L);
            if (withSnapshotBetween == 1 && round % 7 == 3) {
                index.writeSnapshot(dir, i, "k");
                index = new LocalIntentIndex(dir, IntentTable.MIN_SLOTS);
                assertThat(index.loadSnapshot(dir)).isPresent();
            }
        }
        assertThat(index.size()).isEqualTo(2_000);
        assertThat(index.tableSlots()).as("sized by live keys, not by all keys ever seen").isLessThanOrEqualTo(8192);
        for (Map.Entry<String, IntentState> e : model.states.entrySet()) {
            assertThat(index.get(e.getKey())).contains(e.getValue());
        }
    }

    /**
     * Two writers on keys of their own (as calls on different keys are), a sweeper forgetting an old
     * generation and a reader, all at once from the smallest tables, so every stripe grows again and
     * again while they run (with one stripe, both writers contend for its lock). The reader must find
     * every settled key with its state at every moment, a growth's included; the sweeper must forget
     * each old key exactly once; at the end the index knows exactly what each writer's model knows.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 16})
    void concurrentWritersSweepsAndReadsThroughGrowthLoseNothing(int stripes) throws Exception {
        LocalIntentIndex index = new LocalIntentIndex(dir, IntentTable.MIN_SLOTS, stripes);
        java.util.concurrent.atomic.AtomicLong journalIndex = new java.util.concurrent.atomic.AtomicLong();
        int oldKeys = 3_000;
        for (int i = 0; i < oldKeys; i++) {
            index.apply(journalIndex.incrementAndGet(), JournalRecord.of(RecordType.OUTCOME).outcome(OutcomeWord.OK)
                    .effectApplied(Effect.YES).intentKey(String.format("b%015x%016x", i, i * 31L)).started(10).build());
        }
        Model settled = new Model();
        Random rnd = new Random(21);
        for (int i = 0; i < 2_000; i++) {
            JournalRecord r = record(rnd, String.format("a%015x%016x", i, i * 0x9E3779B97F4A7C15L), 1_000);
            long at = journalIndex.incrementAndGet();
            index.apply(at, r);
            settled.apply(at, r);
        }
        Model[] models = {new Model(), new Model()};
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.List<Thread> writers = new java.util.ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int me = w;
            Thread t = new Thread(() -> {
                try {
                    Random mine = new Random(100 + me);
                    for (int n = 0; n < 60_000; n++) {
                        // new keys keep arriving while older ones are written again
                        int k = mine.nextInt(Math.min(20_000, 1 + n / 2));
                        JournalRecord r = record(mine, String.format("%016x%016x", me + 1, k * 0x9E3779B97F4A7C15L), 2_000 + n);
                        long at = journalIndex.incrementAndGet();
                        index.apply(at, r);
                        models[me].apply(at, r);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "writer-" + w);
            writers.add(t);
        }
        java.util.concurrent.atomic.AtomicInteger forgotten = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger readRounds = new java.util.concurrent.atomic.AtomicInteger();
        Thread sweeper = new Thread(() -> {
            try {
                while (writers.stream().anyMatch(Thread::isAlive)) {
                    forgotten.addAndGet(index.forgetOlderThan(100));
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "sweeper");
        Thread reader = new Thread(() -> {
            try {
                while (writers.stream().anyMatch(Thread::isAlive)) {
                    for (Map.Entry<String, IntentState> e : settled.states.entrySet()) {
                        IntentState seen = index.get(e.getKey()).orElse(null);
                        if (!e.getValue().equals(seen)) {
                            throw new AssertionError(e.getKey() + " read as " + seen + ", not " + e.getValue());
                        }
                    }
                    readRounds.incrementAndGet();
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "reader");
        writers.forEach(Thread::start);
        sweeper.start();
        reader.start();
        for (Thread t : java.util.List.of(writers.get(0), writers.get(1), sweeper, reader)) {
            t.join(180_000);
            assertThat(t.isAlive()).as("%s finished within its bound", t.getName()).isFalse();
        }
        assertThat(failure.get()).as("no thread failed").isNull();
        assertThat(readRounds.get()).as("the reader ran while the writers did").isPositive();
        forgotten.addAndGet(index.forgetOlderThan(100));
        assertThat(forgotten.get()).as("each old key forgotten exactly once").isEqualTo(oldKeys);
        assertThat(index.tableSlots()).as("the tables grew meanwhile").isGreaterThanOrEqualTo(stripes * IntentTable.MIN_SLOTS * 8);

        Model all = new Model();
        all.states.putAll(settled.states);
        all.states.putAll(models[0].states);
        all.states.putAll(models[1].states);
        assertSame(index, all, 20_000, "after the race");
        for (int i = 0; i < oldKeys; i += 7) {
            assertThat(index.get(String.format("b%015x%016x", i, i * 31L))).isEmpty();
        }
        index.writeSnapshot(dir, journalIndex.get(), "k");
        LocalIntentIndex back = new LocalIntentIndex(dir, IntentTable.MIN_SLOTS);
        assertThat(back.loadSnapshot(dir)).isPresent();
        assertSame(back, all, 20_000, "read back from a snapshot after the race");
    }
}

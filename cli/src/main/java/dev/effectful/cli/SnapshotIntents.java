package dev.effectful.cli;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.reentry.IndexSnapshot;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.OpenIntents;
import dev.effectful.core.reentry.Phase;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The intents {@code journal unresolved}, {@code journal approvals} and the console's desk list, read from
 * the agent's index snapshot ({@link IndexSnapshot}) plus the journal after it instead of from the whole
 * journal: the snapshot names the intents that are not settled and where each one's latest intent (or
 * approval request) record is, so what is read grows with the answer and the records written since the
 * snapshot, not with the journal.
 *
 * <p>The answer is the one a full pass gives, or this declines and the caller makes the full pass: when
 * there is no snapshot or it is unusable (checksum, version), when its last record is not in this journal
 * with its key (a replaced or rewritten journal), when an intent's record is not where the snapshot says
 * (a snapshot from before states pointed at it, or a cycle file deleted since), and when a listed intent
 * would need records before the snapshot that were not read ({@link JournalIntents#needsHistory}). Only the
 * warnings differ: damage before the snapshot is not seen here ({@code journal verify} reads everything).
 *
 * <p>The open intents come from their own small file beside the snapshot ({@link OpenIntents}) when it is
 * usable, else from the snapshot. Nothing in the journal directory is written: each file is read (the snapshot
 * mapped) read-only, and the agent replaces each by a rename, so this reads either the old file or the new one,
 * each whole and checked.
 */
final class SnapshotIntents {

    /** What {@code unresolved} and {@code approvals} list: the unsettled phases and the awaited approvals. */
    private static final Set<Phase> LISTED = listed();

    /** Tests turn this off to compare with the full pass on the same journal. */
    static volatile boolean enabled = true;

    private SnapshotIntents() {
    }

    private static Set<Phase> listed() {
        Set<Phase> out = EnumSet.noneOf(Phase.class);
        for (Phase p : Phase.values()) {
            if (p.open()) {
                out.add(p);
            }
        }
        return out;
    }

    /** Where the open intents come from: what it covers, and a pass over them. */
    private record Source(IndexSnapshot.Covers covers, Consumer<IndexSnapshot.Visitor> pass) {
    }

    /**
     * The open intents' own file first (a few in a hundred of the intents, read whole), then the snapshot (every
     * intent, checked whole before it is believed): the first whose last record is still in this journal with its
     * key, as a restart checks it.
     */
    private static Optional<Source> source(JournalReader reader) {
        Optional<Source> open = OpenIntents.read(reader.directory()).map(o -> new Source(o.covers(), o::forEach));
        if (open.isPresent() && matches(reader, open.get().covers())) {
            return open;
        }
        return IndexSnapshot.readOnly(reader.directory())
                .map(v -> new Source(v.covers(), visitor -> v.forEach(LISTED, visitor)))
                .filter(s -> matches(reader, s.covers()));
    }

    private static boolean matches(JournalReader reader, IndexSnapshot.Covers covers) {
        return reader.read(covers.lastIndex()).map(r -> covers.lastKey().equals(r.intentKey())).orElse(false);
    }

    /**
     * The table to list from, what reading it saw, and the last journal index read (where following the
     * journal resumes).
     *
     * @param records      the intent records already read, by index (those the snapshot pointed at), so
     *                     listing them does not read them again; empty after a full pass
     * @param fromSnapshot whether it came from the snapshot and the records after it (not a full pass)
     */
    record Read(JournalIntents table, JournalReader.Report report, long lastIndex, Map<Long, JournalRecord> records,
                boolean fromSnapshot) {
    }

    /** From the snapshot when it can answer, else from a full pass. */
    static Read readOrScan(JournalReader reader) throws CliException {
        Optional<Read> fast = fromSnapshot(reader);
        if (fast.isPresent()) {
            return fast.get();
        }
        JournalIntents table = JournalIntents.forJournal(reader);
        long[] last = {-1};
        JournalReader.Report report = reader.scanSummaries((i, r) -> {
            table.accept(i, r);
            last[0] = i;
        });
        return new Read(table, report, last[0], Map.of(), false);
    }

    /** A seeded intent: its key, its snapshot state and its latest intent record's index. */
    private record Seed(String key, IntentState state, long index) {
    }

    /** From the snapshot and the records after it; empty when that cannot give the full pass's answer. */
    static Optional<Read> fromSnapshot(JournalReader reader) throws CliException {
        return fromSnapshot(reader, false);
    }

    /**
     * As {@link #fromSnapshot(JournalReader)}; {@code summaries} reads the intent records without their
     * arguments (several times faster), for a caller that shows only some of them and reads those whole
     * itself: {@link Read#records} is empty then.
     */
    static Optional<Read> fromSnapshot(JournalReader reader, boolean summaries) throws CliException {
        if (!enabled) {
            return Optional.empty();
        }
        Optional<Source> source = source(reader);
        if (source.isEmpty()) {
            return Optional.empty();
        }
        IndexSnapshot.Covers covers = source.get().covers();
        List<Seed> seeds = new ArrayList<>();
        boolean[] unplaced = {false};
        source.get().pass().accept((key, s) -> {
            long at = s.argsIndex();
            if (at < 0) {
                unplaced[0] = true; // written before states pointed at their record: only a full pass finds it
            } else if (at <= covers.lastIndex()) {
                seeds.add(new Seed(key, s, at));
            }
            // else the record is after the snapshot (the state was copied while the agent went on): read below
        });
        if (unplaced[0]) {
            return Optional.empty();
        }
        // journal order: a task's actor is the first one met, as in a full pass, and the reads move forward
        seeds.sort((a, b) -> Long.compare(a.index(), b.index()));
        Map<Long, JournalRecord> records = reader.readAll(seeds.stream().mapToLong(Seed::index).toArray(), summaries);
        JournalIntents table = new JournalIntents(2L * seeds.size() + 1024);
        for (Seed seed : seeds) {
            JournalRecord r = records.get(seed.index());
            if (r == null || r.intentKey() == null
                    || r.type() != RecordType.INTENT && r.type() != RecordType.APPROVAL_REQUESTED) {
                return Optional.empty(); // not where the snapshot says: deleted, damaged, or another journal
            }
            IntentState s = seed.state();
            // a check that it is this intent's record: the key the snapshot holds it under (compared with the key
            // the snapshot's pass gave, not looked up again: a lookup per intent is a random read of the table)
            if (!seed.key().equals(r.intentKey())) {
                return Optional.empty();
            }
            table.seed(seed.index(), r, s.phase(), s.attempts(), s.keySent());
        }
        long[] last = {covers.lastIndex()};
        JournalReader.Report report = reader.scanSummariesAfter(covers.lastIndex(), (i, r) -> {
            table.accept(i, r);
            last[0] = i;
        });
        if (table.needsHistory()) {
            return Optional.empty();
        }
        return Optional.of(new Read(table, report, last[0], summaries ? Map.of() : records, true));
    }
}

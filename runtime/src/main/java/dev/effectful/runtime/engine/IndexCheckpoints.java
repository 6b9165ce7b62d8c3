package dev.effectful.runtime.engine;

import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.LocalIntentIndex;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes the intent index to disk now and then ({@code index.snapshot} beside the journal), so a
 * restart replays only the journal after it: the rebuild of a large journal went from seconds to a
 * fraction of one. A snapshot is written once the index has taken in {@link #EVERY_RECORDS} records
 * it does not cover (checked every {@link #PERIOD_SECONDS} s, and once soon after start), and when the
 * engine is closed once {@link #AT_STOP_RECORDS} records are uncovered. Not from a JVM shutdown hook: the
 * application's threads and the retention sweeper still run while hooks do, and a longer shutdown is a wider
 * window for them to be cut mid-work.
 *
 * <p>Consistency: the snapshot says "everything up to journal index N". N is read while no record
 * is between the journal and the index ({@link JournalAccess#settledLastIndex}); the index's table is
 * then copied while calls go on, so it may also hold records after N, even a slot whose fields come
 * from two records. Replaying those again on restart is harmless: every field of a state is set by
 * the last record that sets it, or is a maximum (see {@code IntentTable.copySlot}).
 */
final class IndexCheckpoints implements AutoCloseable {

    static final long EVERY_RECORDS = 50_000;
    static final long PERIOD_SECONDS = 60;
    /** Below this many uncovered records a restart replays them faster than a stop would write the table. */
    static final long AT_STOP_RECORDS = 1_000;

    private final ChronicleJournal journal;
    private final JournalAccess access;
    private final LocalIntentIndex index;
    private final ScheduledExecutorService timer;
    private long uncovered;
    private long foldedAtLast;
    private boolean stopped;

    /** @param uncoveredAtStart records the start-up replay read that no snapshot covered */
    IndexCheckpoints(ChronicleJournal journal, JournalAccess access, LocalIntentIndex index, long uncoveredAtStart) {
        this.journal = journal;
        this.access = access;
        this.index = index;
        this.uncovered = uncoveredAtStart;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "effectful-checkpoint");
            t.setDaemon(true);
            return t;
        });
    }

    IndexCheckpoints start() {
        timer.schedule(this::checkQuietly, 1, TimeUnit.SECONDS);
        timer.scheduleWithFixedDelay(this::checkQuietly, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
        return this;
    }

    private void checkQuietly() {
        check(EVERY_RECORDS);
    }

    /**
     * A clean stop: the snapshot a restart will start from, when enough is uncovered. Once per instance.
     */
    void atStop() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        check(AT_STOP_RECORDS);
    }

    private synchronized void check(long threshold) {
        try {
            long folded = access.foldedCount();
            uncovered += folded - foldedAtLast;
            foldedAtLast = folded;
            if (uncovered >= threshold) {
                writeNow();
                uncovered = 0;
            }
        } catch (Exception | OutOfMemoryError e) {
            // a snapshot only saves time at the next start; the journal has everything
            AgentLog.warnOnce("checkpoint", "effectful could not write its index snapshot in " + journal.directory()
                    + ": " + e + "; the next start replays the whole journal");
        }
    }

    /** Writes a snapshot of the index as it stands; package-visible for tests. */
    void writeNow() throws java.io.IOException {
        long started = System.nanoTime();
        if (access.damageUnacknowledged()) {
            // a snapshot past a damaged record would let the next start skip it, and with it the hold
            return;
        }
        long last = access.settledLastIndex(journal::lastIndex);
        if (last < 0) {
            return;
        }
        String lastKey = journal.read(last).map(JournalRecord::intentKey).orElse(null);
        if (lastKey == null) {
            return; // not one of ours: nothing to check a restart against
        }
        index.writeSnapshot(journal.directory(), last, lastKey);
        AgentLog.debug("effectful index snapshot: " + index.size() + " intents (" + index.tableSlots()
                + " table slots) up to " + Long.toHexString(last)
                + " in " + (System.nanoTime() - started) / 1_000_000 + " ms");
    }

    /** Stops the periodic snapshots and writes the one a clean stop leaves (the journal is still open here). */
    @Override
    public void close() {
        timer.shutdownNow();
        atStop();
    }
}

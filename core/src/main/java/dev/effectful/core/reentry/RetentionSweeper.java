package dev.effectful.core.reentry;

import dev.effectful.core.journal.Journal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.log.AgentLog;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Keeps the journal and the intent index bounded by {@code effectful.retention}: forgets keys whose
 * latest record is older than the window, then deletes whole cycle files that ended before it.
 *
 * <p>A cycle file is kept while any intent it mentions is still remembered by the index: an
 * unresolved intent is never forgotten, so the evidence a person needs to resolve it stays on disk,
 * and a remembered ok keeps the record its replayed value is read from. The current cycle and the
 * newest file are never touched (an appender may hold them).
 */
public final class RetentionSweeper implements AutoCloseable {

    /** Sweeping more often than this buys nothing: retention is measured in days in production. */
    private static final Duration MAX_PERIOD = Duration.ofHours(1);
    private static final Duration MIN_PERIOD = Duration.ofSeconds(1);

    private final Journal journal;
    private final IntentStore store;
    private final Duration retention;
    private final LongSupplier clock;
    private ScheduledExecutorService timer;
    private volatile Result last = new Result(0, 0, 0);

    public RetentionSweeper(Journal journal, IntentStore store, Duration retention, LongSupplier clock) {
        this.journal = journal;
        this.store = store;
        this.retention = retention;
        this.clock = clock;
    }

    /** What one sweep did. */
    public record Result(int keysForgotten, int filesDeleted, int filesKept) {
    }

    /** Forgets old keys, then deletes the cycle files nothing remembered needs. */
    public synchronized Result sweep() {
        long cutoff = clock.getAsLong() - retention.toMillis();
        int forgotten = store.forgetOlderThan(cutoff);
        int deleted = 0;
        int kept = 0;
        int current = journal.currentCycle();
        // keys with records in expired files that stay: their stories must not lose their ends
        Set<String> inKeptFiles = new HashSet<>();
        for (int cycle : journal.cycles()) {
            if (cycle >= current || journal.cycleEndMillis(cycle) > cutoff) {
                break; // cycles are in order: every later one is younger still
            }
            Map<String, Long> lastRecordOf = stateRecords(cycle);
            if (lastRecordOf == null) {
                kept++; // holds a damaged record: the file is evidence until a person has looked
                continue;
            }
            if (lastRecordOf.keySet().stream().anyMatch(k -> store.get(k).isPresent())) {
                kept++;
                inKeptFiles.addAll(lastRecordOf.keySet());
                continue;
            }
            try {
                carryOver(lastRecordOf, inKeptFiles);
                if (journal.deleteCycle(cycle)) {
                    deleted++;
                }
            } catch (IOException | RuntimeException e) {
                AgentLog.warnOnce("retention-delete", "effectful could not delete an expired journal cycle file in "
                        + journal.directory() + ": " + e + "; it will try again at the next sweep");
            }
        }
        if (deleted > 0 || forgotten > 0) {
            AgentLog.debug("effectful retention " + retention + ": " + forgotten + " keys forgotten, " + deleted
                    + " cycle files deleted, " + kept + " expired files kept for intents still remembered; "
                    + store.size() + " intents remembered"); // the soak reads the index size from here
        }
        last = new Result(forgotten, deleted, kept);
        return last;
    }

    /**
     * Per key, the index of its last record in {@code cycle} that its state rests on. A cycle is
     * needed while one of these keys is remembered. Dedup and refused records change nothing but a
     * key's age, and every remembered key that is not unresolved has a younger record than any
     * expired cycle, so a cycle with only those is needed by nobody. Counting them kept every cycle
     * in which a held intent was asked again until a person resolved it: the soak saw the journal
     * grow by a file for each such repeat. Null when the cycle holds a damaged record.
     */
    private Map<String, Long> stateRecords(int cycle) {
        Map<String, Long> last = new HashMap<>();
        boolean sound = journal.replayCycle(cycle, (i, r) -> {
            if (r.intentKey() != null && !StateTransitions.agesOnly(r)) {
                last.put(r.intentKey(), i);
            }
        });
        return sound ? last : null;
    }

    /**
     * A call can start at the very end of a file that is kept (it also holds an intent that is
     * still remembered) and end in the next one, which is not. Deleting that one would leave the
     * intent record without its outcome, and every later reader would take a finished call for a
     * crash and hold it for a person (the soak found dozens). So before the file goes, the last
     * record of each such forgotten key is appended again to the live journal, marked as carried.
     * Its copy ages out like any record; if its file is deleted while the intent's file is still
     * kept, it is carried again.
     */
    private void carryOver(Map<String, Long> lastRecordOf, Set<String> inKeptFiles) {
        for (Map.Entry<String, Long> e : lastRecordOf.entrySet()) {
            if (!inKeptFiles.contains(e.getKey())) {
                continue;
            }
            journal.read(e.getValue()).ifPresent(r -> journal.append(carried(r)));
        }
    }

    static JournalRecord carried(JournalRecord r) {
        String note = "carried over by retention: the file that held this record was deleted while an earlier"
                + " record of the same intent was kept";
        return new JournalRecord(r.type(), r.task(), r.actor(), r.call(), r.kind(), r.intentKey(), r.attempt(),
                r.attemptId(), r.started(), r.budgetLeftS(), r.args(), r.outcome(), r.effectApplied(), r.retryAfterS(),
                r.deadlineLeftS(), r.message() == null ? note : r.message() + " (" + note + ")", r.result(), r.probe(),
                r.pid(), r.thread(), r.durationMs(), r.item(), r.reentry(), r.header(), r.verdict(), r.by(), r.note(), r.via());
    }

    public Result lastResult() {
        return last;
    }

    /** Sweeps now, then periodically on a daemon thread for the life of the process. */
    public RetentionSweeper startPeriodic() {
        sweep();
        long period = Math.max(MIN_PERIOD.toMillis(), Math.min(MAX_PERIOD.toMillis(), retention.toMillis()));
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "effectful-retention");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::sweepQuietly, period, period, TimeUnit.MILLISECONDS);
        return this;
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            AgentLog.warnOnce("retention-sweep", "effectful retention sweep failed: " + e + "; retrying later");
        }
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}

package dev.effectful.cli;

import dev.effectful.core.journal.RootCause;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalFiles;
import dev.effectful.core.journal.JournalFollower;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.JournalScan;
import dev.effectful.core.journal.RecordDamage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Read-only access to a journal that may be live, crashed or damaged. It never takes the writer
 * lock and never writes, so it is safe beside a running agent.
 *
 * <p>Every pass over the records runs on a daemon worker watched for progress: Chronicle can throw
 * or, on a badly damaged file, fail to advance; the CLI must then stop with partial results and a
 * warning rather than hang an operator's terminal. The pass itself is the journal's own
 * {@link JournalScan} (the one the engine replays with): damaged records are counted and skipped; an
 * exception from Chronicle itself ends that cycle file and the pass carries on with the next one.
 */
final class JournalReader implements AutoCloseable {

    /** A pass that reads nothing new for this long is abandoned (partial results, a warning). */
    static final long DEFAULT_STALL_MILLIS = 15_000;

    /**
     * Records handed out by every reader in this JVM, by passes and by index: how a test tells a command
     * that read what its answer needs from one that read the whole journal.
     */
    static final AtomicLong RECORDS_READ = new AtomicLong();

    private final Path dir;
    private final ChronicleJournal journal;
    private final long stallMillis;
    /** Set when a worker was abandoned inside Chronicle: unmapping files under it could crash the JVM. */
    private volatile boolean leakOnClose;

    private JournalReader(Path dir, ChronicleJournal journal, long stallMillis) {
        this.dir = dir;
        this.journal = journal;
        this.stallMillis = stallMillis;
    }

    /** Receives each decoded record of a pass, on the worker thread. */
    @FunctionalInterface
    interface Sink {
        void accept(long index, JournalRecord record);
    }

    /**
     * What a pass saw besides the records.
     *
     * @param unreadable     documents present in the queue that do not decode as a record, or whose
     *                       checksum fails (each of those is also in {@code damaged})
     * @param incompleteTail the last cycle ends in a record whose writer stopped mid-write (kill -9)
     * @param damage         why a part of the journal could not be read (null when all of it was)
     * @param stalled        the pass stopped advancing and was abandoned
     * @param damaged        every record whose bytes changed since written: where, and whose when known
     * @param unchecked      records written before records carried checksums (nothing to check them by)
     */
    record Report(long records, long unreadable, boolean incompleteTail, String damage, boolean stalled,
                  List<RecordDamage> damaged, long unchecked) {
        boolean partial() {
            return damage != null || stalled;
        }
    }

    /** One record with its queue index. */
    record Entry(long index, JournalRecord record) {
    }

    /** Opens {@code dir} read-only, or explains in one line why it is not a journal (exit 2). */
    static JournalReader open(Path dir, long stallMillis) throws CliException {
        checkJournalDirectory(dir);
        JournalReader[] holder = new JournalReader[1];
        Worker w = new Worker(stallMillis);
        w.run(progress -> {
            try {
                holder[0] = new JournalReader(dir, ChronicleJournal.openReader(dir), stallMillis);
            } catch (Exception | Error e) {
                throw new CliFailure(new CliException(2, "cannot read journal " + dir + ": " + RootCause.firstLine(e)));
            }
        });
        if (w.stalled) {
            throw new CliException(2, "cannot read journal " + dir + ": opening it did not finish within "
                    + stallMillis / 1000 + " s (damaged metadata.cq4t?)");
        }
        return holder[0];
    }

    /** The checks every command makes before touching Chronicle, each with an operator's message. */
    static void checkJournalDirectory(Path dir) throws CliException {
        if (!Files.exists(dir)) {
            throw new CliException(2, "no journal at " + dir + ": directory does not exist"
                    + " (give --dir DIR, or set EFFECTFUL_JOURNAL_DIR)");
        }
        if (!Files.isDirectory(dir)) {
            throw new CliException(2, "no journal at " + dir + ": not a directory");
        }
        if (!Files.isReadable(dir) || !Files.isExecutable(dir)) {
            throw new CliException(2, "cannot read journal " + dir + ": permission denied"
                    + " (journal files are owner-only; run as the user that wrote them)");
        }
        if (!JournalFiles.looksLikeJournal(dir)) {
            throw new CliException(2, "not an Effectful journal directory: " + dir + " (no .cq4 files in it)");
        }
    }

    Path directory() {
        return dir;
    }

    /** Chronicle's count of excerpts, for sizing; 0 when it cannot tell (damage). */
    long recordCountHint() {
        return journal.recordCountHint();
    }

    /** Follows the journal from its current end (read-only): records appended from now on. */
    JournalFollower followFromEnd() {
        return journal.followFromEnd();
    }

    /** Opens the journal for writing, continuing its own roll cycle (the writer lock is taken). */
    ChronicleJournal openWriter() throws java.io.IOException {
        return ChronicleJournal.openWriterLike(journal, true);
    }

    /** Every record from the oldest kept, in order. */
    Report scan(Sink sink) throws CliException {
        return scan(sink, false);
    }

    /**
     * Every record, without its arguments, result text, message and thread: enough for tasks,
     * unresolved and verify, and several times faster on a large journal.
     */
    Report scanSummaries(Sink sink) throws CliException {
        return scan(sink, true, JournalScan.Range.all());
    }

    /** As {@link #scanSummaries}, for the records after the one at {@code index}: what a live view has not seen. */
    Report scanSummariesAfter(long index, Sink sink) throws CliException {
        return scan(sink, true, index < 0 ? JournalScan.Range.all() : JournalScan.Range.after(index));
    }

    /** The index of the newest record, or -1 for an empty journal. */
    long lastIndex() {
        return journal.lastIndex();
    }

    private Report scan(Sink sink, boolean summaries) throws CliException {
        return scan(sink, summaries, JournalScan.Range.all());
    }

    private Report scan(Sink sink, boolean summaries, JournalScan.Range range) throws CliException {
        Worker w = new Worker(stallMillis);
        JournalScan s = journal.newScan(summaries, w.control());
        w.run(progress -> s.run(range, (i, r) -> {
            w.inSink = true;
            RECORDS_READ.incrementAndGet();
            try {
                sink.accept(i, r);
            } finally {
                w.inSink = false;
            }
        }));
        if (w.stalled) {
            leakOnClose = true;
        }
        // read after the worker ended, or was abandoned inside Chronicle: partial then
        JournalScan.Counts c = s.counts();
        return new Report(c.records(), c.unreadable(), c.incompleteTail(), c.damage(), w.stalled, c.damaged(),
                c.unchecked());
    }

    /** The newest {@code n} records, oldest first; read backwards so a huge journal costs nothing extra. */
    List<Entry> last(int n) throws CliException {
        List<Entry> out = new ArrayList<>();
        if (n <= 0) {
            return out;
        }
        Worker w = new Worker(stallMillis);
        AtomicReference<RuntimeException> backwardFailed = new AtomicReference<>();
        w.run(progress -> {
            try {
                journal.newestFirst(n, w.control(), (i, r) -> out.add(new Entry(i, r)));
            } catch (RuntimeException e) {
                backwardFailed.set(e);
            }
        });
        if (w.stalled) {
            leakOnClose = true;
        }
        if (backwardFailed.get() == null && !w.stalled) {
            java.util.Collections.reverse(out);
            return out;
        }
        // damage defeats the backward walk: fall back to a forward pass keeping the last n
        Deque<Entry> ring = new ArrayDeque<>(n);
        scan((index, r) -> {
            if (ring.size() == n) {
                ring.removeFirst();
            }
            ring.addLast(new Entry(index, r));
        });
        return new ArrayList<>(ring);
    }

    /** The record at {@code index}, or empty when it is gone or does not decode. */
    Optional<JournalRecord> read(long index) {
        RECORDS_READ.incrementAndGet();
        try {
            return journal.read(index);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The records at {@code indexes} (any order; negative ones are none), by index, read in one walk
     * forward: many records spread over a large journal cost far less than as many {@link #read}s. One that
     * is gone or does not decode is absent from the map.
     */
    Map<Long, JournalRecord> readAll(long[] indexes) {
        return readAll(indexes, false);
    }

    /** As {@link #readAll(long[])}; {@code summaries}: without arguments, result text, message and thread. */
    Map<Long, JournalRecord> readAll(long[] indexes, boolean summaries) {
        long[] ascending = Arrays.stream(indexes).filter(i -> i >= 0).sorted().distinct().toArray();
        Map<Long, JournalRecord> out = new HashMap<>(Math.max(16, ascending.length * 2));
        readEach(ascending, summaries, out::put);
        return out;
    }

    /**
     * The records at {@code ascending} (increasing indexes), in full and in that order, as {@link #readAll}
     * reads them, handed to {@code sink} one at a time rather than held.
     */
    void readEach(long[] ascending, Sink sink) {
        readEach(ascending, false, sink);
    }

    private void readEach(long[] ascending, boolean summaries, Sink sink) {
        long[] next = {0}; // the first index not yet handed over
        try {
            journal.readAscending(ascending, summaries, (i, r) -> {
                RECORDS_READ.incrementAndGet();
                next[0] = i + 1;
                sink.accept(i, r);
            });
        } catch (RuntimeException e) {
            // as read(): a record that cannot be read is not there; the rest come one by one
            for (long i : ascending) {
                if (i >= next[0]) {
                    read(i).ifPresent(r -> sink.accept(i, r));
                }
            }
        }
    }

    @Override
    public void close() {
        if (!leakOnClose) {
            try {
                journal.close();
            } catch (RuntimeException ignored) {
                // closing a read-only view cannot lose anything
            }
        }
    }

    /** A {@link CliException} carried out of a worker. */
    static final class CliFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final CliException failure;

        CliFailure(CliException failure) {
            super(failure.getMessage(), null, false, false);
            this.failure = failure;
        }
    }

    /** Runs work on a daemon thread and abandons it when it makes no progress for too long. */
    static final class Worker {
        private final long stallMillis;
        volatile boolean abandoned;
        /** Documents read so far, sound or not: what tells a slow pass from a stuck one. */
        final AtomicLong progress = new AtomicLong();
        /** Time spent in the sink (e.g. output blocked on a pipe nobody reads yet) is not a stall. */
        volatile boolean inSink;
        boolean stalled;

        Worker(long stallMillis) {
            this.stallMillis = stallMillis;
        }

        interface Work {
            void run(AtomicLong progress);
        }

        /** How a journal pass reports progress to this watchdog and learns it was abandoned. */
        JournalScan.Control control() {
            return new JournalScan.Control() {
                @Override
                public boolean stopped() {
                    return abandoned;
                }

                @Override
                public void progressed() {
                    progress.incrementAndGet();
                }
            };
        }

        void run(Work work) throws CliException {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    work.run(progress);
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "effectful-journal-read");
            t.setDaemon(true);
            t.start();
            long seen = -1;
            long lastChange = System.nanoTime();
            try {
                while (t.isAlive()) {
                    t.join(50);
                    long p = progress.get();
                    if (p != seen || inSink) {
                        seen = p;
                        lastChange = System.nanoTime();
                    } else if ((System.nanoTime() - lastChange) / 1_000_000 > stallMillis) {
                        abandoned = true;
                        stalled = true;
                        return;
                    }
                }
            } catch (InterruptedException e) {
                abandoned = true;
                Thread.currentThread().interrupt();
                throw new CliException(1, "interrupted");
            }
            Throwable f = failure.get();
            if (f instanceof CliFailure cf) {
                throw cf.failure;
            }
            if (f instanceof RuntimeException re) {
                throw re;
            }
            if (f instanceof Error err) {
                throw err;
            }
        }
    }
}

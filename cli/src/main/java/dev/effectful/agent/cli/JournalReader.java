package dev.effectful.agent.cli;

import dev.effectful.runtime.journal.ChecksumWatch;
import dev.effectful.runtime.journal.ChronicleJournal;
import dev.effectful.runtime.journal.DecodedRecord;
import dev.effectful.runtime.journal.JournalFiles;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.RecordCodec;
import dev.effectful.runtime.journal.RecordDamage;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.ExcerptContext;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.Wires;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Read-only access to a journal that may be live, crashed or damaged. It never takes the writer
 * lock and never writes, so it is safe beside a running agent.
 *
 * <p>Every pass over the records runs on a daemon worker watched for progress: Chronicle can throw
 * or, on a badly damaged file, fail to advance; the CLI must then stop with partial results and a
 * warning rather than hang an operator's terminal. Records Chronicle delivers but that do not decode
 * are counted as unreadable and skipped; an exception from Chronicle itself ends that cycle file and
 * the pass carries on with the next one.
 */
final class JournalReader implements AutoCloseable {

    /** A pass that reads nothing new for this long is abandoned (partial results, a warning). */
    static final long DEFAULT_STALL_MILLIS = 15_000;

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
                throw new CliFailure(new CliException(2, "cannot read journal " + dir + ": " + rootMessage(e)));
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

    SingleChronicleQueue queue() {
        return journal.queue();
    }

    /** Chronicle's count of excerpts, for sizing; 0 when it cannot tell (damage). */
    long recordCountHint() {
        try {
            return Math.max(0, queue().entryCount());
        } catch (RuntimeException | InternalError e) {
            return 0;
        }
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
        return scan(sink, true);
    }

    private Report scan(Sink sink, boolean summaries) throws CliException {
        Scan scan = new Scan(summaries);
        Worker w = new Worker(stallMillis);
        w.run(progress -> scan.run(queue(), sink, progress, w));
        if (w.stalled) {
            leakOnClose = true;
        }
        return new Report(scan.records, scan.unreadable, scan.incompleteTail, scan.damage, w.stalled,
                List.copyOf(scan.damaged), scan.unchecked);
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
            try (ExcerptTailer t = queue().createTailer()) {
                t.direction(TailerDirection.BACKWARD).toEnd();
                while (out.size() < n && !w.abandoned) {
                    try (DocumentContext dc = t.readingDocument()) {
                        if (!dc.isPresent()) {
                            break;
                        }
                        progress.incrementAndGet();
                        JournalRecord r = decode(dc);
                        if (r != null) {
                            out.add(new Entry(dc.index(), r));
                        }
                    }
                }
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
        try {
            return journal.read(index);
        } catch (RuntimeException e) {
            return Optional.empty();
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

    /** Null when the document is not one of our records (damage, or a foreign writer). */
    static JournalRecord decode(DocumentContext dc) {
        return decode(dc, false);
    }

    static JournalRecord decode(DocumentContext dc, boolean summary) {
        try {
            return !dc.isData() ? null : summary ? RecordCodec.readSummary(dc.wire()) : RecordCodec.read(dc.wire());
        } catch (RuntimeException e) {
            return null;
        }
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        if (m != null) {
            m = m.lines().findFirst().orElse("");
        }
        return t.getClass().getSimpleName() + (m == null || m.isEmpty() ? "" : ": " + m);
    }

    /** One forward pass; fields are read by the caller after the worker ends or is abandoned. */
    private static final class Scan {
        private final boolean summaries;
        volatile long records;
        volatile long unreadable;
        volatile boolean incompleteTail;
        volatile String damage;
        volatile long unchecked;
        final List<RecordDamage> damaged = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final ChecksumWatch watch = new ChecksumWatch();

        Scan(boolean summaries) {
            this.summaries = summaries;
        }

        void run(SingleChronicleQueue queue, Sink sink, AtomicLong progress, Worker w) {
            ExcerptTailer t;
            try {
                t = queue.createTailer();
                t.toStart();
            } catch (RuntimeException | Error e) {
                damage = "cannot start reading: " + rootMessage(e);
                return;
            }
            try {
                boolean atEnd = false;
                while (!w.abandoned) {
                    if (atEnd) {
                        incompleteTail = endsInIncompleteRecord(queue, t);
                        return;
                    }
                    int cycle = t.cycle();
                    // metadata included: a record whose header was damaged into "metadata" is otherwise skipped unseen
                    try (DocumentContext dc = t.readingDocument(true)) {
                        if (!dc.isPresent()) {
                            atEnd = true;
                            continue; // closes dc first: only then is the read position back at the next header
                        }
                        progress.incrementAndGet();
                        if (!dc.isData()) {
                            if (dc.isMetaData() && RecordCodec.looksLikeRecord(dc.wire())) {
                                unreadable++;
                                damaged.add(RecordDamage.of(where(t, dc), dc.index(),
                                        RecordCodec.decode(dc.wire(), RecordCodec.Mode.FULL).asDamaged()));
                            }
                            continue;
                        }
                        String at = where(t, dc);
                        DecodedRecord d;
                        try {
                            d = watch.judge(RecordCodec.decode(dc.wire(),
                                    summaries ? RecordCodec.Mode.SUMMARY : RecordCodec.Mode.FULL));
                        } catch (RuntimeException e) {
                            d = new DecodedRecord(null, DecodedRecord.Integrity.DAMAGED, false, 0);
                        }
                        if (d.damaged()) {
                            unreadable++;
                            damaged.add(RecordDamage.of(at, dc.index(), d));
                            continue;
                        }
                        if (d.integrity() == DecodedRecord.Integrity.UNCHECKED) {
                            unchecked++;
                        }
                        JournalRecord r = d.record();
                        records++;
                        w.inSink = true;
                        try {
                            sink.accept(dc.index(), r);
                        } catch (RuntimeException e) {
                            throw new SinkFailure(e);
                        } finally {
                            w.inSink = false;
                        }
                    } catch (SinkFailure e) {
                        throw e.getCause() instanceof RuntimeException re ? re : e;
                    } catch (RuntimeException | InternalError e) {
                        // InternalError: the JVM's report of a fault reading a mapped file (truncated under us)
                        String where = "cycle file " + cycleFile(t);
                        damage = (damage == null ? "" : damage + "; ") + where + ": " + rootMessage(e);
                        if (!skipToNextCycle(queue, t, cycle)) {
                            return;
                        }
                    }
                }
            } finally {
                try {
                    t.close();
                } catch (RuntimeException ignored) {
                    // nothing more to read
                }
            }
        }

        /** Cycle file and byte offset of the document's header; read before decoding it. */
        private static String where(ExcerptTailer t, DocumentContext dc) {
            try {
                return cycleFile(t) + " byte " + (dc.wire().bytes().readPosition() - 4);
            } catch (RuntimeException e) {
                return cycleFile(t);
            }
        }

        private static String cycleFile(ExcerptTailer t) {
            try {
                java.io.File f = t.currentFile();
                return f == null ? "#" + t.cycle() : f.getName();
            } catch (RuntimeException e) {
                return "#" + t.cycle();
            }
        }

        private static boolean skipToNextCycle(SingleChronicleQueue queue, ExcerptTailer t, int cycle) {
            try {
                int next = queue.nextCycle(cycle, TailerDirection.FORWARD);
                return next > cycle && t.moveToCycle(next);
            } catch (Exception | Error e) {
                return false;
            }
        }
    }

    /**
     * After the last complete record: a writer killed mid-append leaves either a header marked
     * not-complete, or (Chronicle holds its append lock instead of marking the header) a zero header
     * followed by the bytes it had already written. Readers skip both; the operator should know.
     */
    static boolean endsInIncompleteRecord(SingleChronicleQueue queue, ExcerptTailer t) {
        try {
            if (t.cycle() != queue.lastCycle() || !(t instanceof ExcerptContext ctx)) {
                return false;
            }
            Wire wire = ctx.wire();
            if (wire == null) {
                return false;
            }
            Bytes<?> b = wire.bytes();
            long p = b.readPosition();
            int header = b.readVolatileInt(p);
            if (header != 0 && Wires.isNotComplete(header)) { // isNotComplete(0) is true: 0 means "nothing yet"
                return true;
            }
            if (header != 0) {
                return false;
            }
            // only the first body bytes: the record's first field ("type") is written first, while
            // Chronicle may keep other structures (index pages) a little further on
            return b.readVolatileInt(p + 4) != 0 || b.readVolatileInt(p + 8) != 0;
        } catch (RuntimeException | InternalError e) {
            return false;
        }
    }

    private static final class SinkFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SinkFailure(RuntimeException cause) {
            super(cause);
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
        /** Time spent in the sink (e.g. output blocked on a pipe nobody reads yet) is not a stall. */
        volatile boolean inSink;
        boolean stalled;

        Worker(long stallMillis) {
            this.stallMillis = stallMillis;
        }

        interface Work {
            void run(AtomicLong progress);
        }

        void run(Work work) throws CliException {
            AtomicLong progress = new AtomicLong();
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

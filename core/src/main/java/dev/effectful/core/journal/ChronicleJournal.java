package dev.effectful.core.journal;

import dev.effectful.core.log.AgentLog;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.StoreFileListener;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The journal on a Chronicle Queue: memory-mapped, so a record is safe once the append returns
 * even if the process is killed the next instant; a record torn by a kill is invisible to readers.
 *
 * <p>Chronicle appenders and tailers belong to one thread each, hence the thread-locals.
 */
public final class ChronicleJournal implements Journal {

    private final Path dir;
    private final SingleChronicleQueue queue;
    private final JournalLock lock;
    private final boolean syncIntents;
    private final ThreadLocal<ExcerptAppender> appenders;
    private final ThreadLocal<ExcerptTailer> tailers;
    private final ThreadLocal<MappedRangeSync> syncs = ThreadLocal.withInitial(MappedRangeSync::new);
    private final PageBacking backing = new PageBacking();
    private volatile int lastTightenedCycle = Integer.MIN_VALUE;
    private List<String> damage = List.of();
    /** Damaged records met by any replay or read, by index: reported once each, never acted on. */
    private final java.util.Map<Long, RecordDamage> recordDamage = new java.util.concurrent.ConcurrentSkipListMap<>();

    /** Chronicle's record header: a 32-bit length-and-state word before the data. */
    private static final int HEADER_BYTES = 4;

    private ChronicleJournal(Path dir, SingleChronicleQueue queue, JournalLock lock, boolean syncIntents) {
        this.dir = dir;
        this.queue = queue;
        this.lock = lock;
        this.syncIntents = syncIntents;
        this.appenders = ThreadLocal.withInitial(queue::createAppender);
        this.tailers = ThreadLocal.withInitial(queue::createTailer);
    }

    /**
     * Opens the journal for writing: creates the directory owner-only, takes the one-writer lock.
     *
     * @param syncIntents true for {@code effectful.sync=intent}: msync after each intent
     * @param rollCycle   how often a new cycle file starts (daily in production; faster in soaks)
     */
    public static ChronicleJournal openWriter(Path dir, boolean syncIntents, RollCycle rollCycle,
                                              StoreFileListener listener) throws IOException {
        JournalFiles.ensureDirectory(dir);
        JournalLock lock = JournalLock.acquire(dir);
        try {
            // before Chronicle maps anything: it cannot append to a truncated file (see JournalSalvage)
            JournalSalvage salvage = JournalSalvage.prepare(dir);
            SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir)
                    .rollCycle(rollCycle == null ? RollCycles.FAST_DAILY : rollCycle)
                    .indexSpacing(QueueCycles.INDEX_SPACING)
                    .indexCount(QueueCycles.INDEX_COUNT)
                    // Chronicle's own msync goes through the native layer the build leaves out;
                    // append() forces intents itself (MappedRangeSync)
                    .syncMode(SyncMode.NONE)
                    .storeFileListener(new OwnerOnlyFiles(listener))
                    .build();
            // the metadata file is made at build(), before any listener hears of it
            JournalFiles.ownerOnly(dir.resolve("metadata.cq4t"));
            ChronicleJournal j = new ChronicleJournal(dir, q, lock, syncIntents);
            try {
                salvage.finish(j);
            } catch (IOException | RuntimeException e) {
                j.queue.close();
                throw e;
            }
            j.damage = salvage.report();
            for (RecordDamage d : salvage.damagedRecords()) {
                j.recordDamage.put(Long.MIN_VALUE + j.recordDamage.size(), d); // no queue index: kept apart
            }
            return j;
        } catch (IOException e) {
            lock.close();
            throw e;
        } catch (RuntimeException | Error e) {
            lock.close();
            throw new IOException("cannot open journal " + dir + ": " + e, e);
        }
    }

    /** Opens an existing journal read-only, beside a live writer or after a crash. */
    public static ChronicleJournal openReader(Path dir) throws IOException {
        if (!JournalFiles.looksLikeJournal(dir)) {
            throw new IOException("not an Effectful journal directory: " + dir);
        }
        try {
            SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).readOnly(true).build();
            return new ChronicleJournal(dir, q, null, false);
        } catch (RuntimeException | Error e) {
            throw new IOException("cannot read journal " + dir + ": " + e, e);
        }
    }

    @Override
    public long append(JournalRecord record) {
        try {
            ExcerptAppender appender = appenders.get();
            // encoded and checksummed before the queue's write lock: inside it, only the copy
            RecordEncoder encoded = RecordEncoder.get().encode(record);
            long from;
            long to;
            try (DocumentContext dc = appender.writingDocument()) {
                try {
                    // positions in the cycle file (the header word sits just before the data)
                    from = dc.wire().bytes().writePosition() - HEADER_BYTES;
                    // blocks for the record's pages first, by a plain write: a full disk fails it with an
                    // IOException, never the mapped copy below with SIGBUS
                    backing.back(appender.currentFile(), from + HEADER_BYTES, from + HEADER_BYTES + encoded.length());
                    dc.wire().bytes().write(encoded.buffer(), 0, encoded.length());
                    to = dc.wire().bytes().writePosition();
                } catch (RuntimeException | Error e) {
                    // never commit half a record (a SIGBUS on a full disk arrives as InternalError
                    // mid-write); rolling back also releases Chronicle's write lock
                    dc.rollbackOnClose();
                    throw e;
                }
            }
            long index = appender.lastIndexAppended();
            int cycle = appender.cycle();
            if (cycle != lastTightenedCycle) {
                // Chronicle creates cycle files with the process umask and does not always tell
                // the listener about the first one; tighten each new cycle once, here.
                lastTightenedCycle = cycle;
                java.io.File f = appender.currentFile();
                if (f != null) {
                    JournalFiles.ownerOnly(f.toPath());
                }
            }
            if (syncIntents && record.type() == RecordType.INTENT) {
                syncs.get().force(appender.currentFile().toPath(), from, to);
            }
            return index;
        } catch (IOException | RuntimeException | Error e) {
            appenders.remove();
            syncs.remove();
            String why = RootCause.message(e);
            if (why.toLowerCase(java.util.Locale.ROOT).contains("no space left")) {
                // a full disk passes: retryable, like the free-space check's own refusal
                throw new JournalUnavailableException(new JournalProblem(JournalProblem.Cause.DISK_FULL,
                        "journal unavailable: disk full, cannot write to " + dir + ": " + why), e);
            }
            throw new JournalUnavailableException("journal unavailable: cannot write to " + dir + ": " + why, e);
        }
    }

    /** Forces this thread's current cycle file, up to what it appended, to disk (msync). */
    @Override
    public void sync() {
        ExcerptAppender appender = appenders.get();
        File file = appender.currentFile();
        if (file == null || appender.wire() == null) {
            return; // nothing appended by this thread
        }
        Bytes<?> bytes = appender.wire().bytes();
        try {
            syncs.get().force(file.toPath(), 0, bytes.writePosition());
        } catch (IOException e) {
            syncs.remove();
            throw new JournalUnavailableException("journal unavailable: cannot sync " + file + ": " + RootCause.message(e), e);
        }
    }

    @Override
    public Optional<JournalRecord> read(long index) {
        ExcerptTailer tailer = tailers.get();
        try {
            if (!tailer.moveToIndex(index)) {
                return Optional.empty();
            }
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return Optional.empty();
                }
                DecodedRecord d = RecordCodec.decode(dc.wire(), RecordCodec.Mode.FULL);
                if (d.damaged()) {
                    found(JournalScan.where(tailer, dc), dc.index(), d);
                }
                return Optional.ofNullable(d.trusted());
            }
        } catch (RuntimeException e) {
            tailers.remove();
            return Optional.empty();
        }
    }

    /**
     * Visits the records at {@code ascending} (indexes in increasing order), each decoded in full, with one
     * tailer ({@link AscendingReads}): far cheaper than as many {@link #read}s when they are many and spread
     * over a large journal. A record that is gone or does not decode is not visited.
     */
    public void readAscending(long[] ascending, RecordVisitor visitor) {
        readAscending(ascending, false, visitor);
    }

    /**
     * As {@link #readAscending(long[], RecordVisitor)}; {@code summaries} decodes each without its arguments,
     * result text, message and thread (as a summary pass does), several times faster.
     */
    public void readAscending(long[] ascending, boolean summaries, RecordVisitor visitor) {
        AscendingReads.read(queue, ascending, summaries, visitor, this::found);
    }

    @Override
    public void replay(RecordVisitor visitor) {
        replay(visitor, false);
    }

    @Override
    public void replayForIndex(RecordVisitor visitor) {
        replay(visitor, true);
    }

    private void replay(RecordVisitor visitor, boolean lean) {
        replay(visitor, lean, -1);
    }

    /** From the start, or after the record at {@code afterIndex} (>= 0); false if that record is not there. */
    private boolean replay(RecordVisitor visitor, boolean lean, long afterIndex) {
        long[] read = {0, -1};
        try {
            return replay0((i, r) -> {
                read[0]++;
                read[1] = i;
                visitor.visit(i, r);
            }, lean, afterIndex);
        } catch (JournalUnavailableException e) {
            throw e;
        } catch (RuntimeException | InternalError e) {
            // a truncated or overwritten cycle file: reading past the damage faults (a truncated
            // mapping arrives as SIGBUS, i.e. InternalError). Everything before it was delivered;
            // stop here and say so rather than skip silently over records nobody can see.
            throw new JournalUnavailableException(new JournalProblem(JournalProblem.Cause.DAMAGED,
                    "journal damaged in " + dir + ": " + read[0]
                    + " complete records read (last index " + Long.toHexString(read[1]) + "), then " + RootCause.message(e)
                    + "; run 'journal verify', and move the damaged cycle file aside to go on"), e);
        }
    }

    private boolean replay0(RecordVisitor visitor, boolean lean, long afterIndex) {
        JournalScan scan = new JournalScan(queue, lean ? RecordCodec.Mode.INDEX : RecordCodec.Mode.FULL,
                JournalScan.OnFault.STOP, JournalScan.Control.NONE, this::found);
        return scan.run(afterIndex < 0 ? JournalScan.Range.all() : JournalScan.Range.after(afterIndex), visitor)
                .rangeFound();
    }

    /**
     * Remembers a damaged record and says so loudly, once per record: the engine holds or refuses
     * calls because of it (see {@link #damagedRecords}), and a person must hear why.
     */
    private void found(String where, long index, DecodedRecord d) {
        RecordDamage damage = RecordDamage.of(where, index, d);
        if (recordDamage.putIfAbsent(index, damage) == null) {
            AgentLog.errorOnce("journal-record-damage:" + dir + ":" + damage.id(), "journal " + dir + ": "
                    + damage.describe() + "; its content is not used. Check with: java -jar effectful-agent.jar"
                    + " journal --dir " + dir + " verify", null);
        }
    }

    /** Every damaged record a replay or read of this journal met so far, in index order. */
    @Override
    public List<RecordDamage> damagedRecords() {
        // asked before every effectful call (DamageHold): a sound journal must not copy anything
        return recordDamage.isEmpty() ? List.of() : List.copyOf(recordDamage.values());
    }

    /** Cycles (one roll period each) that have a file on disk, oldest first. */
    @Override
    public List<Integer> cycles() {
        return QueueCycles.onDisk(queue);
    }

    /** The cycle that appends go to now: never deleted. */
    @Override
    public int currentCycle() {
        return queue.cycle();
    }

    /** Epoch millis at which {@code cycle} ends: every record in it is older. */
    @Override
    public long cycleEndMillis(int cycle) {
        return queue.epoch() + ((long) cycle + 1) * queue.rollCycle().lengthInMillis();
    }

    /**
     * Visits every sound record of one cycle, in order, decoded as for the index. Returns false when
     * the cycle holds a damaged record (reported, not visited): its file is evidence a person needs.
     */
    @Override
    public boolean replayCycle(int cycle, RecordVisitor visitor) {
        JournalScan scan = new JournalScan(queue, RecordCodec.Mode.INDEX, JournalScan.OnFault.STOP,
                JournalScan.Control.NONE, this::found);
        return scan.run(JournalScan.Range.cycle(cycle), visitor).damaged().isEmpty();
    }

    /**
     * Deletes the file of a past cycle and makes the queue forget it. Refuses the cycle appends go
     * to now and the newest one on disk, which an appender may still hold.
     */
    @Override
    public boolean deleteCycle(int cycle) throws IOException {
        return QueueCycles.delete(queue, cycle);
    }

    /** One line per damaged cycle file found when this writer opened (recovered and moved aside, or left). */
    public List<String> damageFound() {
        return damage;
    }

    /**
     * The underlying queue: for the journal package (salvage, scans) and the bench's journal generator,
     * which writes a million records at append speed. Nothing else may import {@code net.openhft}.
     */
    public SingleChronicleQueue queue() {
        return queue;
    }

    /**
     * A damage-tolerant pass for readers that must not stop at the first fault (the CLI), to
     * {@link JournalScan#run}; its {@link JournalScan#counts() counts} can be read while it runs. Damaged records are counted
     * in it, not logged.
     */
    public JournalScan newScan(boolean summaries, JournalScan.Control control) {
        return new JournalScan(queue, summaries ? RecordCodec.Mode.SUMMARY : RecordCodec.Mode.FULL,
                JournalScan.OnFault.NEXT_CYCLE, control, null);
    }

    /**
     * Visits up to {@code n} of the newest sound records, newest first, reading backwards so a huge
     * journal costs nothing extra. Throws when damage defeats the backward walk (the caller then
     * falls back to a forward {@link #scan}).
     */
    public void newestFirst(int n, JournalScan.Control control, RecordVisitor visitor) {
        int seen = 0;
        try (ExcerptTailer t = queue.createTailer()) {
            t.direction(net.openhft.chronicle.queue.TailerDirection.BACKWARD).toEnd();
            while (seen < n && !control.stopped()) {
                try (DocumentContext dc = t.readingDocument()) {
                    if (!dc.isPresent()) {
                        return;
                    }
                    control.progressed();
                    JournalRecord r = dc.isData() ? RecordCodec.read(dc.wire()) : null;
                    if (r != null) {
                        seen++;
                        visitor.visit(dc.index(), r);
                    }
                }
            }
        }
    }

    /** Follows the journal from its current end: each record appended from now on, in order. */
    public JournalFollower followFromEnd() {
        return new JournalFollower(queue.createTailer().toEnd());
    }

    /** Chronicle's count of records, for sizing; 0 when it cannot tell (damage). */
    public long recordCountHint() {
        try {
            return Math.max(0, queue.entryCount());
        } catch (RuntimeException | InternalError e) {
            return 0;
        }
    }

    /**
     * Opens {@code dir} for writing with the roll cycle its existing files use (read from
     * {@code reader}): a writer that joins a journal must continue its cycles, not the default.
     */
    public static ChronicleJournal openWriterLike(ChronicleJournal reader, boolean syncIntents) throws IOException {
        return openWriter(reader.dir, syncIntents, reader.queue.rollCycle(), null);
    }

    /**
     * Opens the journal for writing with a roll cycle named as in {@code effectful.roll-cycle}:
     * {@code daily} (default), {@code hourly}, {@code five_minutely} (or {@code minutely}),
     * {@code secondly} (tests and soaks only).
     */
    public static ChronicleJournal openWriter(Path dir, boolean syncIntents, String rollCycleName) throws IOException {
        return openWriter(dir, syncIntents, QueueCycles.named(rollCycleName), null);
    }

    @Override
    public Path directory() {
        return dir;
    }

    @Override
    public void close() {
        backing.close();
        try {
            queue.close();
        } finally {
            if (lock != null) {
                try {
                    lock.close();
                } catch (IOException ignored) {
                    // the process is going away; the kernel releases the lock anyway
                }
            }
        }
    }

    /** The index of the newest record, or -1 for an empty journal. */
    @Override
    public long lastIndex() {
        try {
            return queue.lastIndex();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Visits, decoded for the index, every record after the one at {@code index}: the tail a
     * snapshot of the index does not cover. Returns how many, or -1 if that record is not in the
     * journal (then nothing was visited and a full replay is needed).
     */
    @Override
    public long replayForIndexAfter(long index, RecordVisitor visitor) {
        long[] visited = {0};
        boolean found = replay((i, r) -> {
            visited[0]++;
            visitor.visit(i, r);
        }, true, index);
        return found ? visited[0] : -1;
    }
}

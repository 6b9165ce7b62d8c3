package dev.effectful.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.ExcerptContext;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.Wires;

import java.io.File;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The one forward pass over a journal's records, read-only, used by replay at start, snapshot
 * catch-up, retention and every CLI command. Damage is judged the same way for all of them: each
 * record's checksums ({@link RecordCodec#decode}), a record without a checksum among checksummed
 * ones ({@link ChecksumWatch}), and a data record whose header was flipped to "metadata" (read
 * with metadata included, else it would vanish unseen). A damaged record is reported, never
 * visited. What differs is only what a fault inside Chronicle itself (a truncated or overwritten
 * cycle file) does to the pass: the engine stops ({@link OnFault#STOP}, its caller says so loudly),
 * the CLI goes on with the next cycle file ({@link OnFault#NEXT_CYCLE}).
 *
 * <p>A scan is single-use; its counters are read after {@link #run} returns (or, by the CLI's
 * watchdog, while it is still stuck inside Chronicle: hence volatile).
 */
public final class JournalScan {

    /** What a fault inside Chronicle does to the pass. */
    public enum OnFault {
        /** Rethrow: everything before it was delivered; the caller reports it. */
        STOP,
        /** Note it in {@link #damage()} and go on with the next cycle file. */
        NEXT_CYCLE
    }

    /** Where a pass starts and ends. */
    public sealed interface Range {
        /** From the oldest record kept to the end. */
        static Range all() {
            return new All();
        }

        /** After the record at {@code index} (which sets what the next ones must carry) to the end. */
        static Range after(long index) {
            return new After(index);
        }

        /** The records of one cycle. */
        static Range cycle(int cycle) {
            return new Cycle(cycle);
        }
    }

    private record All() implements Range {
    }

    private record After(long index) implements Range {
    }

    private record Cycle(int cycle) implements Range {
    }

    /** Lets a watchdog see progress and stop a pass that stalls; {@link #NONE} for callers without one. */
    public interface Control {
        Control NONE = new Control() {
        };

        /** Asked before each record: true ends the pass. */
        default boolean stopped() {
            return false;
        }

        /** Called for each document read, sound or not. */
        default void progressed() {
        }
    }

    /** Receives each damaged record as it is found. */
    @FunctionalInterface
    public interface DamageSink {
        void found(String where, long index, DecodedRecord record);
    }

    private final SingleChronicleQueue queue;
    private final RecordCodec.Mode mode;
    private final OnFault onFault;
    private final Control control;
    private final DamageSink damageSink;
    private final ChecksumWatch watch = new ChecksumWatch();
    private final List<RecordDamage> damaged = new CopyOnWriteArrayList<>();
    private volatile long records;
    private volatile long unreadable;
    private volatile long unchecked;
    private volatile boolean incompleteTail;
    private volatile String damage;
    private volatile boolean rangeFound = true;

    JournalScan(SingleChronicleQueue queue, RecordCodec.Mode mode, OnFault onFault, Control control, DamageSink sink) {
        this.queue = queue;
        this.mode = mode;
        this.onFault = onFault;
        this.control = control == null ? Control.NONE : control;
        this.damageSink = sink;
    }

    /**
     * Reads {@code range}, visiting every sound record in order, and returns what it met. With
     * {@link OnFault#STOP} a fault inside Chronicle is rethrown; otherwise this never throws but what the
     * visitor throws.
     */
    public Counts run(Range range, Journal.RecordVisitor visitor) {
        ExcerptTailer t;
        try {
            t = queue.createTailer();
        } catch (RuntimeException | Error e) {
            if (onFault == OnFault.STOP) {
                throw e;
            }
            damage = "cannot start reading: " + RootCause.firstLine(e);
            return counts();
        }
        try {
            if (!position(t, range)) {
                rangeFound = false;
                return counts();
            }
            int onlyCycle = range instanceof Cycle c ? c.cycle() : Integer.MIN_VALUE;
            boolean atEnd = false;
            while (!control.stopped()) {
                if (atEnd) {
                    incompleteTail = endsInIncompleteRecord(queue, t);
                    return counts();
                }
                int cycle = t.cycle();
                try (DocumentContext dc = t.readingDocument(true)) {
                    if (!dc.isPresent() || onlyCycle != Integer.MIN_VALUE && queue.rollCycle().toCycle(dc.index()) != onlyCycle) {
                        if (onlyCycle != Integer.MIN_VALUE) {
                            return counts();
                        }
                        atEnd = true;
                        continue; // closes dc first: only then is the read position back at the next header
                    }
                    control.progressed();
                    if (!dc.isData()) {
                        if (dc.isMetaData() && RecordCodec.looksLikeRecord(dc.wire())) {
                            found(where(t, dc), dc.index(), RecordCodec.decode(dc.wire(), mode).asDamaged());
                        }
                        continue;
                    }
                    visitData(t, dc, visitor);
                } catch (VisitorFailure e) {
                    throw (RuntimeException) e.getCause();
                } catch (RuntimeException | InternalError e) {
                    // InternalError: the JVM's report of a fault reading a mapped file (truncated under us)
                    if (onFault == OnFault.STOP) {
                        throw e;
                    }
                    damage = (damage == null ? "" : damage + "; ") + "cycle file " + cycleFile(t) + ": " + RootCause.firstLine(e);
                    if (onlyCycle != Integer.MIN_VALUE || !skipToNextCycle(t, cycle)) {
                        return counts();
                    }
                }
            }
            return counts();
        } finally {
            try {
                t.close();
            } catch (RuntimeException ignored) {
                // nothing more to read
            }
        }
    }

    /** One data document: decoded and checked, then visited, or counted as damage. */
    private void visitData(ExcerptTailer t, DocumentContext dc, Journal.RecordVisitor visitor) {
        String at = where(t, dc);
        DecodedRecord d;
        try {
            d = watch.judge(RecordCodec.decode(dc.wire(), mode));
        } catch (RuntimeException e) {
            d = new DecodedRecord(null, DecodedRecord.Integrity.DAMAGED, false, 0);
        }
        if (d.damaged()) {
            found(at, dc.index(), d);
            return;
        }
        if (d.integrity() == DecodedRecord.Integrity.UNCHECKED) {
            unchecked++;
        }
        records++;
        try {
            visitor.visit(dc.index(), d.record());
        } catch (RuntimeException e) {
            throw new VisitorFailure(e);
        }
    }

    private boolean position(ExcerptTailer t, Range range) {
        if (range instanceof Cycle c) {
            return t.moveToCycle(c.cycle());
        }
        if (range instanceof After a) {
            if (!t.moveToIndex(a.index())) {
                return false;
            }
            try (DocumentContext first = t.readingDocument()) {
                if (!first.isPresent() || first.index() != a.index()) {
                    return false;
                }
                // the record the snapshot ends at sets what the records after it must carry
                watch.judge(RecordCodec.decode(first.wire(), RecordCodec.Mode.INDEX));
            }
            return true;
        }
        t.toStart();
        return true;
    }

    private void found(String where, long index, DecodedRecord d) {
        unreadable++;
        damaged.add(RecordDamage.of(where, index, d));
        if (damageSink != null) {
            damageSink.found(where, index, d);
        }
    }

    /**
     * What a scan has met so far: final once {@link #run} returned, a consistent-enough view while it runs
     * (a reader that gave up on a stalled scan reports what was read until then).
     *
     * @param records        sound records visited
     * @param unreadable     documents that are not a record that can be trusted (each one is also in {@code damaged})
     * @param unchecked      records written before records carried checksums: nothing to check them by
     * @param incompleteTail the last cycle ends in a record whose writer stopped mid-write (kill -9)
     * @param damage         why a part of the journal could not be read ({@link OnFault#NEXT_CYCLE}); null when all of it was
     * @param damaged        every damaged record met, in the order met
     * @param rangeFound     false when the range's start (a cycle, or the record to read after) is not in the journal
     */
    public record Counts(long records, long unreadable, long unchecked, boolean incompleteTail, String damage,
                         List<RecordDamage> damaged, boolean rangeFound) {
    }

    /** What this scan has met so far ({@link Counts}). */
    public Counts counts() {
        return new Counts(records, unreadable, unchecked, incompleteTail, damage, List.copyOf(damaged), rangeFound);
    }

    /** Cycle file and byte offset of the document's header; read before decoding it. */
    static String where(ExcerptTailer t, DocumentContext dc) {
        try {
            return cycleFile(t) + " byte " + (dc.wire().bytes().readPosition() - 4);
        } catch (RuntimeException e) {
            return cycleFile(t);
        }
    }

    private static String cycleFile(ExcerptTailer t) {
        try {
            File f = t.currentFile();
            return f == null ? "cycle " + t.cycle() : f.getName();
        } catch (RuntimeException e) {
            return "cycle " + t.cycle();
        }
    }

    private boolean skipToNextCycle(ExcerptTailer t, int cycle) {
        try {
            int next = queue.nextCycle(cycle, TailerDirection.FORWARD);
            return next > cycle && t.moveToCycle(next);
        } catch (Exception | Error e) {
            return false;
        }
    }

    /**
     * After the last complete record: a writer killed mid-append leaves either a header marked
     * not-complete, or (Chronicle holds its append lock instead of marking the header) a zero header
     * followed by the bytes it had already written. Readers skip both; the operator should know.
     */
    private static boolean endsInIncompleteRecord(SingleChronicleQueue queue, ExcerptTailer t) {
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

    /** What the visitor threw, carried past the handler for Chronicle's own faults. */
    private static final class VisitorFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        VisitorFailure(RuntimeException cause) {
            super(cause);
        }
    }
}

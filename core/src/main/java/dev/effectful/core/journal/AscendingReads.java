package dev.effectful.core.journal;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Many records read by index in one walk forward ({@link ChronicleJournal#readAscending}): a short gap is walked
 * over (a document's header costs tens of nanoseconds) and a long one jumped by the queue's index (microseconds: a
 * look-up, then a walk from the nearest indexed record), so records spread over a large journal cost far less
 * than one {@link ChronicleJournal#read} each.
 */
final class AscendingReads {

    /** Records walked over rather than jumped: a jump costs about as much as walking this many headers. */
    private static final long WALK = 100;

    /** Where a damaged record met on the way is reported (the journal keeps and logs it). */
    @FunctionalInterface
    interface Damage {
        void found(String where, long index, DecodedRecord d);
    }

    private AscendingReads() {
    }

    static void read(SingleChronicleQueue queue, long[] ascending, boolean summaries, Journal.RecordVisitor visitor,
                     Damage damage) {
        RecordCodec.Mode mode = summaries ? RecordCodec.Mode.SUMMARY : RecordCodec.Mode.FULL;
        ExcerptTailer tailer = queue.createTailer();
        try {
            for (long target : ascending) {
                if (!moveTo(tailer, target)) {
                    continue;
                }
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent() || dc.index() != target) {
                        continue;
                    }
                    DecodedRecord d = RecordCodec.decode(dc.wire(), mode);
                    if (d.damaged()) {
                        damage.found(JournalScan.where(tailer, dc), dc.index(), d);
                    }
                    if (d.trusted() != null) {
                        visitor.visit(target, d.trusted());
                    }
                }
            }
        } finally {
            tailer.close();
        }
    }

    /** Puts {@code tailer} before the record at {@code target}: false when there is none. */
    private static boolean moveTo(ExcerptTailer tailer, long target) {
        long at = tailer.index();
        // indexes of different cycles differ by far more than WALK: those are always jumps
        if (target < at || target - at > WALK) {
            return tailer.moveToIndex(target);
        }
        while (tailer.index() < target) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
            }
        }
        return tailer.index() == target || tailer.moveToIndex(target);
    }
}

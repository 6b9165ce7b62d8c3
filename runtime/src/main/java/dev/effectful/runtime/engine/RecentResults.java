package dev.effectful.runtime.engine;

import dev.effectful.core.journal.JournalRecord;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The records holding a stored result that this process wrote lately, by journal index, so a
 * repeated intent is answered without reading the journal back (the read was a quarter of a
 * deduplicated call). Direct-mapped: a slot per index hash, a newer record simply replaces an
 * older one, so it is bounded, lock-free and never wrong (an entry is checked by its index).
 */
final class RecentResults {

    private static final int SLOTS = 1024;
    /** Larger results are read from the journal when needed: the cache stays within ~2 MB. */
    static final int MAX_RESULT_CHARS = 2048;

    private record Entry(long index, JournalRecord record) {
    }

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);

    void remember(long index, JournalRecord r) {
        if (r.result() != null && r.result().length() <= MAX_RESULT_CHARS) {
            slots.set(slot(index), new Entry(index, r));
        }
    }

    /** The record at {@code index} if it is still remembered, else null. */
    JournalRecord find(long index) {
        Entry e = slots.get(slot(index));
        return e != null && e.index() == index ? e.record() : null;
    }

    private static int slot(long index) {
        long h = index * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 54) & (SLOTS - 1);
    }
}

package dev.effectful.core.reentry;

import dev.effectful.core.log.AgentLog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.StampedLock;

/**
 * One stripe of a {@link LocalIntentIndex}: the keys whose hash falls in it, in a table of its own
 * behind a write lock of its own. Two calls on keys of different stripes never wait for each other,
 * and a growth copies only this stripe's keys (a sixteenth of them), holding only this stripe's lock.
 *
 * <p>The index takes {@link #lock} around every use of {@link #table}; everything here that changes
 * the table is called with the write lock held.
 */
final class IndexStripe {

    final StampedLock lock = new StampedLock();
    /** Null when no table file could be made: this stripe's keys are then on the index's heap map. */
    volatile IntentTable table;
    private final Path tableDir;
    /** The empty table the next growth will take, made and faulted in off the lock (see prepareNext). */
    private final AtomicReference<IntentTable> prepared = new AtomicReference<>();
    /** Shared by the index's stripes: at most one preparation thread at a time. */
    private final AtomicBoolean preparing;

    IndexStripe(Path tableDir, IntentTable table, AtomicBoolean preparing) {
        this.tableDir = tableDir;
        this.table = table;
        this.preparing = preparing;
    }

    /**
     * Makes room for one more key, growing the table if it must (or preparing the next one once
     * half full); returns the table to insert into, or null when the key must go on the heap.
     * Called with the write lock held.
     */
    IntentTable roomForOneMore() {
        IntentTable t = table;
        if (t == null) {
            return null;
        }
        if (!t.hasRoomForOneMore()) {
            t = grow(t);
        } else if (t.live + t.tombs >= t.slots / 2) {
            prepareNext(t.slots * 2);
        }
        return t.hasRoomForOneMore() ? t : null;
    }

    /**
     * Rehashes into a new table sized for the live keys (tombstones dropped), published only when
     * complete. When none can be made (largest size reached, no disk), keys go on in the heap map.
     */
    private IntentTable grow(IntentTable t) {
        int slots = IntentTable.slotsFor((t.live + 1L) * 4 / 3);
        if (slots == t.slots && t.tombs == 0) {
            AgentLog.warnOnce("index-full", "effectful's index table is at its largest (" + t.slots + " slots);"
                    + " further intents are remembered on the heap (shorten effectful.retention to bound it)");
            return t;
        }
        IntentTable bigger = prepared.getAndSet(null);
        try {
            if (bigger == null || bigger.slots != slots) {
                bigger = IntentTable.create(tableDir, slots);
            }
        } catch (IOException | RuntimeException e) {
            AgentLog.warnOnce("index-grow", "effectful could not grow its index table (" + e
                    + "); further intents are remembered on the heap");
            return t;
        }
        t.copyLiveInto(bigger);
        table = bigger;
        return bigger;
    }

    /**
     * Makes the table the next growth will need, in the background, once the current one is half
     * full: a new table's pages are faulted in when first written (20-30 µs each on a small VM, seconds
     * for millions of keys), and growth holds the write lock, so every call would wait for them. The
     * thread writes zeros over the new, empty table (what it holds anyway) and leaves it for
     * {@link #grow}, which makes its own if this one is not ready or not the size it wants.
     */
    private void prepareNext(int slots) {
        if (slots > IntentTable.MAX_SLOTS) {
            return;
        }
        IntentTable ready = prepared.get();
        if (ready != null && ready.slots == slots || !preparing.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                IntentTable next = IntentTable.create(tableDir, slots);
                next.touchPages();
                prepared.set(next);
            } catch (IOException | RuntimeException e) {
                // growth makes its own table then, under the lock, as without this
            } finally {
                preparing.set(false);
            }
        }, "effectful-index-prepare");
        t.setDaemon(true);
        t.start();
    }

    /** Slots of the table prepared for the next growth, 0 when none is ready. */
    int preparedSlots() {
        IntentTable p = prepared.get();
        return p == null ? 0 : p.slots;
    }
}

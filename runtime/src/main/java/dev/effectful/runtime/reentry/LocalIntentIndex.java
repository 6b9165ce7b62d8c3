package dev.effectful.runtime.reentry;

import dev.effectful.runtime.keys.HexKeys;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.log.AgentLog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.StampedLock;

/**
 * The default store: intent key to state, rebuilt from the local journal (or loaded from its
 * snapshot and caught up). Our keys (32 hex digits) live in an {@link IntentTable}, a file mapped
 * into memory (made in the journal directory for the engine's index, in the temporary directory for
 * any other, and unlinked at once; after a restart, the snapshot's own file mapped copy-on-write
 * until the table first grows), so the heap does not grow with the keys remembered; any other key
 * text, and keys beyond the table's largest size or when no table file can be made, live in a small
 * map on the heap.
 *
 * <p>Threads: writers ({@link #apply}, {@link #forgetOlderThan}, growth) take one write lock, so a
 * table has one writer at a time; {@link #get} reads without locking and validates that no write
 * happened meanwhile (an optimistic read), else reads again under the read lock. A snapshot copies
 * the table without the lock (see {@link IntentTable#copySlot}); growth makes a new table and
 * publishes it whole, so a snapshot copies either the old table, complete and no longer written, or
 * the new one, never one half rehashed.
 */
public final class LocalIntentIndex implements IntentStore {

    /** Keys forgotten per hold of the write lock, so a sweep of millions never stalls a call for long. */
    private static final int FORGET_CHUNK = 4096;

    private final Path tableDir;
    private final StampedLock lock = new StampedLock();
    /** The current table; null when no table file could be made (every key is then in {@link #others}). */
    private volatile IntentTable table;
    /** The empty table the next growth will take, made and faulted in off the lock (see prepareNext). */
    private final java.util.concurrent.atomic.AtomicReference<IntentTable> prepared = new java.util.concurrent.atomic.AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicBoolean preparing = new java.util.concurrent.atomic.AtomicBoolean();
    private final ConcurrentHashMap<String, IntentState> others = new ConcurrentHashMap<>();

    /** An index in an unnamed temporary file: scratch replays, the CLI, tests. */
    public LocalIntentIndex() {
        this(null, IntentTable.MIN_SLOTS);
    }

    LocalIntentIndex(Path tableDir, int slots) {
        this.tableDir = tableDir;
        this.table = newTable(slots);
    }

    /** The engine's index, its table files made in {@code journalDir}: the journal's own file system. */
    public static LocalIntentIndex inDirectory(Path journalDir) {
        return new LocalIntentIndex(journalDir, IntentTable.MIN_SLOTS);
    }

    private IntentTable newTable(int slots) {
        try {
            return IntentTable.create(tableDir, slots);
        } catch (IOException | RuntimeException e) {
            AgentLog.warnOnce("index-table", "effectful could not make its index table file in "
                    + (tableDir == null ? "the temporary directory" : tableDir) + " (" + e
                    + "); intents are remembered on the heap instead");
            return null;
        }
    }

    @Override
    public Optional<IntentState> get(String intentKey) {
        return Optional.ofNullable(lookup(intentKey));
    }

    private IntentState lookup(String key) {
        long[] parsed = new long[2];
        if (!HexKeys.parse(key, parsed)) {
            return others.get(key);
        }
        long hi = parsed[0];
        long lo = parsed[1];
        long stamp = lock.tryOptimisticRead();
        if (stamp != 0) {
            IntentState s = inTable(table, hi, lo);
            if (lock.validate(stamp)) {
                return s != null || others.isEmpty() ? s : others.get(key);
            }
        }
        stamp = lock.readLock();
        try {
            IntentState s = inTable(table, hi, lo);
            return s != null || others.isEmpty() ? s : others.get(key);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    private static IntentState inTable(IntentTable t, long hi, long lo) {
        if (t == null) {
            return null;
        }
        int slot = t.find(hi, lo);
        return slot < 0 ? null : t.state(slot);
    }

    /** One process decides alone: the caller's in-process claim is the whole claim. */
    @Override
    public Decision decideAndClaim(String intentKey, IntentMeta meta, Rule rule, long budgetNanos) {
        return rule.decide(lookup(intentKey), System.currentTimeMillis());
    }

    @Override
    public void apply(long index, JournalRecord record) {
        String key = record.intentKey();
        if (key == null) {
            return;
        }
        boolean agesOnly = StateTransitions.agesOnly(record);
        long[] parsed = new long[2];
        if (!HexKeys.parse(key, parsed)) {
            if (agesOnly) {
                others.computeIfPresent(key, (k, s) -> StateTransitions.next(s, index, record));
            } else {
                others.compute(key, (k, s) -> StateTransitions.next(s, index, record));
            }
            return;
        }
        long hi = parsed[0];
        long lo = parsed[1];
        long stamp = lock.writeLock();
        try {
            IntentTable t = table;
            int slot = t == null ? -1 : t.find(hi, lo);
            if (slot >= 0) {
                t.update(slot, StateTransitions.next(t.state(slot), index, record));
                return;
            }
            IntentState spilled = others.isEmpty() ? null : others.get(key);
            if (spilled != null) {
                others.put(key, StateTransitions.next(spilled, index, record));
                return;
            }
            if (agesOnly) {
                return;
            }
            IntentState s = StateTransitions.next(null, index, record);
            if (t != null && !t.hasRoomForOneMore()) {
                t = grow(t);
            } else if (t != null && t.live + t.tombs >= t.slots / 2) {
                prepareNext(t.slots * 2);
            }
            if (t != null && t.hasRoomForOneMore()) {
                t.insert(hi, lo, s);
            } else {
                others.put(key, s);
            }
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Rehashes into a new table sized for the live keys (tombstones dropped), published only when
     * complete. When none can be made (largest size reached, no disk), keys go on in the heap map.
     * Called with the write lock held.
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

    /** Slots of the table prepared for the next growth, 0 when none is ready; for tests of growth. */
    int preparedSlots() {
        IntentTable p = prepared.get();
        return p == null ? 0 : p.slots;
    }

    @Override
    public int forgetOlderThan(long cutoffMillis) {
        int forgotten = 0;
        for (var it = others.entrySet().iterator(); it.hasNext(); ) {
            IntentState s = it.next().getValue();
            if (s.lastMillis() < cutoffMillis && !s.isUnresolved()) {
                it.remove();
                forgotten++;
            }
        }
        IntentTable swept = null;
        int from = 0;
        while (true) {
            long stamp = lock.writeLock();
            try {
                IntentTable t = table;
                if (t == null) {
                    return forgotten;
                }
                if (t != swept) {
                    swept = t; // a rehash moved the keys: go over the new table from its start
                    from = 0;
                }
                if (from >= t.slots) {
                    return forgotten;
                }
                int to = Math.min(t.slots, from + FORGET_CHUNK);
                for (int i = from; i < to; i++) {
                    if (t.statusAt(i) == IntentTable.LIVE && t.lastMillis(i) < cutoffMillis && !t.unresolved(i)) {
                        t.remove(i);
                        forgotten++;
                    }
                }
                from = to;
            } finally {
                lock.unlockWrite(stamp);
            }
        }
    }

    @Override
    public int size() {
        IntentTable t = table;
        return (t == null ? 0 : t.live) + others.size();
    }

    @Override
    public long unresolvedCount() {
        long n = others.values().stream().filter(IntentState::isUnresolved).count();
        IntentTable t = table;
        if (t != null) {
            for (int i = 0; i < t.slots; i++) {
                n += t.unresolved(i) ? 1 : 0;
            }
        }
        return n;
    }

    /** Replaces whatever is here by the snapshot in {@code journalDir}; empty if there is none usable. */
    public Optional<IndexSnapshot.Covers> loadSnapshot(Path journalDir) {
        clear();
        Optional<IndexSnapshot.Loaded> loaded;
        try {
            loaded = IndexSnapshot.read(journalDir);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        if (loaded.isEmpty()) {
            return Optional.empty();
        }
        long stamp = lock.writeLock();
        try {
            table = loaded.get().table();
            others.clear();
            others.putAll(loaded.get().others());
        } finally {
            lock.unlockWrite(stamp);
        }
        return Optional.of(loaded.get().covers());
    }

    /** Writes this index as covering the journal up to {@code lastIndex} (see the engine's checkpoints). */
    public void writeSnapshot(Path journalDir, long lastIndex, String lastKey) throws IOException {
        IntentTable t = table;
        if (t == null) {
            throw new IOException("no index table to snapshot (intents are on the heap)");
        }
        IndexSnapshot.write(journalDir, lastIndex, lastKey, t, others);
    }

    /** Forgets everything: a snapshot turned out not to match the journal. */
    public void clear() {
        IntentTable fresh = newTable(IntentTable.MIN_SLOTS);
        long stamp = lock.writeLock();
        try {
            table = fresh;
            others.clear();
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /** The table a snapshot would copy now; for tests. */
    IntentTable currentTable() {
        return table;
    }

    /** Slots in the current table (0: none, every key is on the heap); for logs and tests of growth. */
    public int tableSlots() {
        IntentTable t = table;
        return t == null ? 0 : t.slots;
    }
}

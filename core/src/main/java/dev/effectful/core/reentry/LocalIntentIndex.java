package dev.effectful.core.reentry;

import dev.effectful.core.journal.HexKeys;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.log.AgentLog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The default store: intent key to state, rebuilt from the local journal (or loaded from its
 * snapshot and caught up). Our keys (32 hex digits) live in {@link IntentTable}s, files mapped
 * into memory (made in the journal directory for the engine's index, in the temporary directory for
 * any other, and unlinked at once; after a restart, the snapshot's own file mapped copy-on-write
 * until a table first grows), so the heap does not grow with the keys remembered; any other key
 * text, and keys beyond a table's largest size or when no table file can be made, live in a small
 * map on the heap.
 *
 * <p>Keys are split by the top bits of their hash into {@value #STRIPES} stripes ({@link IndexStripe}),
 * each a table with its own write lock: two calls on different stripes never wait for each other,
 * and a growth copies one stripe's keys under that stripe's lock only, so the pause it makes is a
 * sixteenth of one table's and stops a sixteenth of the calls.
 *
 * <p>Threads: writers ({@link #apply}, {@link #forgetOlderThan}, growth) take their stripe's write
 * lock, so a table has one writer at a time; {@link #get} reads without locking and validates that no
 * write happened meanwhile (an optimistic read), else reads again under the read lock. A snapshot
 * copies the tables without the locks (see {@link IntentTable#copySlot}); growth makes a new table and
 * publishes it whole, so a snapshot copies either the old table, complete and no longer written, or
 * the new one, never one half rehashed. Replacing everything ({@link #loadSnapshot}, {@link #clear})
 * holds every stripe's lock while it swaps the stripes, and whoever took a stripe before the swap
 * looks again.
 */
public final class LocalIntentIndex implements IntentStore {

    /** Stripes of a new index (a power of two, at most 64: the hash's top six bits choose one). */
    static final int STRIPES = 16;
    /** Keys forgotten per hold of a stripe's write lock, so a sweep of millions never stalls a call for long. */
    private static final int FORGET_CHUNK = 4096;

    private final Path tableDir;
    private final int stripeCount;
    /** Replaced whole (never changed in place) by loadSnapshot and clear, under every stripe's lock. */
    private volatile IndexStripe[] stripes;
    private final AtomicBoolean preparing = new AtomicBoolean();
    private final ConcurrentHashMap<String, IntentState> others = new ConcurrentHashMap<>();

    /** An index in unnamed temporary files: scratch replays, the CLI, tests. */
    public LocalIntentIndex() {
        this(null, IntentTable.MIN_SLOTS);
    }

    LocalIntentIndex(Path tableDir, int slots) {
        this(tableDir, slots, STRIPES);
    }

    /** An index of {@code stripeCount} stripes (a power of two up to 64) of {@code slots} each at first. */
    LocalIntentIndex(Path tableDir, int slots, int stripeCount) {
        if (Integer.bitCount(stripeCount) != 1 || stripeCount > 64) {
            throw new IllegalArgumentException("stripes " + stripeCount);
        }
        this.tableDir = tableDir;
        this.stripeCount = stripeCount;
        this.stripes = freshStripes(slots);
    }

    /** The engine's index, its table files made in {@code journalDir}: the journal's own file system. */
    public static LocalIntentIndex inDirectory(Path journalDir) {
        return new LocalIntentIndex(journalDir, IntentTable.MIN_SLOTS);
    }

    private IndexStripe[] freshStripes(int slots) {
        IndexStripe[] fresh = new IndexStripe[stripeCount];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = new IndexStripe(tableDir, newTable(slots), preparing);
        }
        return fresh;
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

    /** The stripe of a key's hash among {@code count} (a power of two up to 64): the hash's top bits. */
    /** The stripe of {@code all} that holds the key {@code hi}{@code lo}. */
    private static IndexStripe stripeOf(IndexStripe[] all, long hi, long lo) {
        return all[stripeOf(IntentTable.mix(hi, lo), all.length)];
    }

    static int stripeOf(long hash, int count) {
        return (int) (hash >>> 58) & (count - 1);
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
        while (true) {
            IndexStripe[] all = stripes;
            IndexStripe st = stripeOf(all, hi, lo);
            IntentState s = null;
            long stamp = st.lock.tryOptimisticRead();
            boolean read = false;
            if (stamp != 0) {
                s = inTable(st.table, hi, lo);
                read = st.lock.validate(stamp);
            }
            if (!read) {
                stamp = st.lock.readLock();
                try {
                    s = inTable(st.table, hi, lo);
                } finally {
                    st.lock.unlockRead(stamp);
                }
            }
            if (stripes == all) {
                return s != null || others.isEmpty() ? s : others.get(key);
            }
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
        boolean agesOnly = StateTransitions.startsNoIntent(record);
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
        while (true) {
            IndexStripe[] all = stripes;
            IndexStripe st = stripeOf(all, hi, lo);
            long stamp = st.lock.writeLock();
            try {
                if (stripes != all) {
                    continue; // replaced while this waited: the key belongs to the new stripes
                }
                applyLocked(st, hi, lo, key, index, record, agesOnly);
                return;
            } finally {
                st.lock.unlockWrite(stamp);
            }
        }
    }

    /** The key's own stripe's write lock is held: a key's hex and heap-map entries change under it alone. */
    private void applyLocked(IndexStripe st, long hi, long lo, String key, long index, JournalRecord record,
                             boolean agesOnly) {
        IntentTable t = st.table;
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
        IntentTable into = st.roomForOneMore();
        if (into != null) {
            into.insert(hi, lo, s);
        } else {
            others.put(key, s);
        }
    }

    /** Slots of the tables prepared for the next growths, 0 when none is ready; for tests of growth. */
    int preparedSlots() {
        int n = 0;
        for (IndexStripe st : stripes) {
            n += st.preparedSlots();
        }
        return n;
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
        for (IndexStripe st : stripes) {
            forgotten += forget(st, cutoffMillis);
        }
        return forgotten;
    }

    private static int forget(IndexStripe st, long cutoffMillis) {
        int forgotten = 0;
        IntentTable swept = null;
        int from = 0;
        while (true) {
            long stamp = st.lock.writeLock();
            try {
                IntentTable t = st.table;
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
                st.lock.unlockWrite(stamp);
            }
        }
    }

    @Override
    public int size() {
        int n = others.size();
        for (IndexStripe st : stripes) {
            IntentTable t = st.table;
            n += t == null ? 0 : t.live;
        }
        return n;
    }

    @Override
    public long unresolvedCount() {
        long n = others.values().stream().filter(IntentState::isUnresolved).count();
        for (IndexStripe st : stripes) {
            IntentTable t = st.table;
            if (t != null) {
                for (int i = 0; i < t.slots; i++) {
                    n += t.unresolved(i) ? 1 : 0;
                }
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
        // the snapshot's stripe count wins: its keys sit in the stripes their hash chose when written
        List<IntentTable> tables = loaded.get().tables();
        IndexStripe[] read = new IndexStripe[tables.size()];
        for (int i = 0; i < read.length; i++) {
            read[i] = new IndexStripe(tableDir, tables.get(i), preparing);
        }
        replaceAll(read, loaded.get().others());
        return Optional.of(loaded.get().covers());
    }

    /** Writes this index as covering the journal up to {@code lastIndex} (see the engine's checkpoints). */
    public void writeSnapshot(Path journalDir, long lastIndex, String lastKey) throws IOException {
        IndexSnapshot.write(journalDir, lastIndex, lastKey, List.of(currentTables()), others);
    }

    /** Forgets everything: a snapshot turned out not to match the journal. */
    public void clear() {
        replaceAll(freshStripes(IntentTable.MIN_SLOTS), Map.of());
    }

    /** Swaps in {@code fresh} holding every current stripe's write lock (in order: writers hold one at a time). */
    private void replaceAll(IndexStripe[] fresh, Map<String, IntentState> othersNow) {
        IndexStripe[] old = stripes;
        long[] stamps = new long[old.length];
        for (int i = 0; i < old.length; i++) {
            stamps[i] = old[i].lock.writeLock();
        }
        try {
            stripes = fresh;
            others.clear();
            others.putAll(othersNow);
        } finally {
            for (int i = 0; i < old.length; i++) {
                old[i].lock.unlockWrite(stamps[i]);
            }
        }
    }

    /** The tables a snapshot would copy now, one per stripe. */
    IntentTable[] currentTables() throws IOException {
        IndexStripe[] all = stripes;
        IntentTable[] tables = new IntentTable[all.length];
        for (int i = 0; i < all.length; i++) {
            tables[i] = all[i].table;
            if (tables[i] == null) {
                throw new IOException("no index table to snapshot (intents are on the heap)");
            }
        }
        return tables;
    }

    /** Slots in the current tables (0: none, every key is on the heap); for logs and tests of growth. */
    public int tableSlots() {
        int n = 0;
        for (IndexStripe st : stripes) {
            IntentTable t = st.table;
            n += t == null ? 0 : t.slots;
        }
        return n;
    }

    /** Stripes in use (a snapshot's count after a load); for tests. */
    int stripeCount() {
        return stripes.length;
    }
}

package dev.effectful.core.reentry;

import dev.effectful.core.journal.HexKeys;
import dev.effectful.core.journal.Effect;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An open-addressing hash table from a table key (two longs, see {@link HexKeys}) to a packed
 * {@link IntentState}, in a file mapped into memory (never {@code ByteBuffer.allocateDirect}, whose
 * limit is the heap's): the heap holds this object and nothing per key.
 *
 * <p>Slot layout, {@value #SLOT} bytes, little-endian: key high and low halves; the state word
 * (bits 0-1 status: empty, live, tombstone; 2-5 phase; 6-8 effect + 1, 0 for none; 9 key sent; 32-63
 * attempts);
 * retryAfterUntil; resultIndex; lastMillis. Linear probing. A deleted key leaves a tombstone that is
 * never reused in this table (only a rehash into a new table drops them), so a slot goes empty →
 * live (one key, for ever) → tombstone and nothing else. That, and writing the key and fields before
 * the state word (a release store), is what lets {@link #copySlot} read a slot while a writer
 * changes the table: whoever sees a slot live sees its whole key.
 *
 * <p>Mutations are made by one thread at a time (the caller's lock); readers that must not see a
 * half-written state validate around their read (see {@link LocalIntentIndex}).
 */
final class IntentTable {

    static final int SLOT = 48;
    /** One mapped buffer holds at most 2 GiB: 2^24 slots of 48 bytes is 768 MiB, 12.5 million keys. */
    static final int MAX_SLOTS = 1 << 24;
    /** A stripe's first table (see {@link LocalIntentIndex}): 12 KiB, three pages. */
    static final int MIN_SLOTS = 1 << 8;
    /** Table files are named {@code index.table.*.tmp} for the instant between their creation and unlinking. */
    static final String FILE_PREFIX = "index.table.";

    static final int EMPTY = 0;
    static final int LIVE = 1;
    static final int TOMB = 2;

    private static final int KEY_HI = 0;
    private static final int KEY_LO = 8;
    private static final int WORD = 16;
    private static final int RETRY = 24;
    private static final int RESULT = 32;
    private static final int LAST = 40;

    /** A snapshot written before this bit existed has it clear: no key known sent, the cautious reading. */
    private static final long KEY_SENT_BIT = 1L << 9;

    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final Phase[] PHASES = Phase.values();
    private static final Effect[] EFFECTS = Effect.values();

    final int slots;
    private final int mask;
    private final ByteBuffer buf;
    /** Live keys and tombstones; written under the caller's lock only. */
    int live;
    int tombs;

    private IntentTable(int slots, ByteBuffer buf) {
        this.slots = slots;
        this.mask = slots - 1;
        this.buf = buf.order(ByteOrder.LITTLE_ENDIAN);
    }

    static long bytes(int slots) {
        return (long) slots * SLOT;
    }

    /**
     * A new, empty table of {@code slots} (a power of two) in a file created in {@code dir} (null:
     * the temporary directory) and unlinked at once: the mapping outlives the name, so nothing is
     * left behind whatever ends the process, and no start ever has an old table to delete. The
     * mapping is private (copy-on-write), so no store into it ever needs the disk.
     */
    static IntentTable create(Path dir, int slots) throws IOException {
        if (Integer.bitCount(slots) != 1 || slots > MAX_SLOTS) {
            throw new IllegalArgumentException("slots " + slots);
        }
        // createTempFile makes it owner-only (rw-------) where the file system has POSIX modes
        Path file = dir == null ? Files.createTempFile(FILE_PREFIX, ".tmp") : Files.createTempFile(dir, FILE_PREFIX, ".tmp");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            try {
                Files.delete(file);
            } catch (IOException notOnThisFileSystem) {
                file.toFile().deleteOnExit();
            }
            // sparse, mapped copy-on-write: a page becomes this process's own memory (outside the heap)
            // when first written, and is never written back to the file. A shared mapping was 10-30x
            // slower to fill at random (the kernel write-protects the pages its writeback cleans, so
            // stores keep faulting), wrote the table's size in zeros to disk first, and could fault
            // with SIGBUS on a full disk; a private page needs no disk at all.
            ch.write(ByteBuffer.allocate(1), bytes(slots) - 1);
            return new IntentTable(slots, ch.map(FileChannel.MapMode.PRIVATE, 0, bytes(slots)));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * A table over a snapshot's image: {@code image} is a slice of the snapshot file mapped
     * copy-on-write ({@link FileChannel.MapMode#PRIVATE}), so a restart neither copies nor rewrites
     * it, and this process's stores never reach the file. Its checksum and counts were checked.
     */
    static IntentTable over(int slots, ByteBuffer image, int live, int tombs) {
        IntentTable t = new IntentTable(slots, image);
        t.live = live;
        t.tombs = tombs;
        return t;
    }

    /** Writes a zero into every page of this new, empty table, so that its page faults happen now. */
    void touchPages() {
        for (long at = 0; at < bytes(slots); at += 4096) {
            buf.put((int) at, (byte) 0);
        }
    }

    /** The smallest table that holds {@code keys} below the growth threshold, capped at {@link #MAX_SLOTS}. */
    static int slotsFor(long keys) {
        int n = MIN_SLOTS;
        while (n < MAX_SLOTS && keys >= threshold(n)) {
            n <<= 1;
        }
        return n;
    }

    /** Live keys and tombstones beyond which the table is rehashed: three quarters full. */
    static int threshold(int slots) {
        return slots - (slots >>> 2);
    }

    boolean hasRoomForOneMore() {
        return live + tombs + 1 < threshold(slots);
    }

    /**
     * The key's hash: a slot is chosen from its bits 0-23 and 29-52 (see home), a stripe of the
     * index from its top six (see {@link LocalIntentIndex}), so the two choices are independent.
     */
    static long mix(long hi, long lo) {
        // the key is a SHA-256 prefix already; mixing keeps a hand-made key from clustering
        return (hi ^ Long.rotateLeft(lo, 32)) * 0x9E3779B97F4A7C15L;
    }

    private static int home(long hi, long lo, int mask) {
        long h = mix(hi, lo);
        return (int) (h ^ (h >>> 29)) & mask;
    }

    /** The live slot of the key, or -1. */
    int find(long hi, long lo) {
        int i = home(hi, lo, mask);
        for (int n = 0; n < slots; n++, i = (i + 1) & mask) {
            long at = (long) i * SLOT;
            int status = status(word(at));
            if (status == EMPTY) {
                return -1;
            }
            if (status == LIVE && buf.getLong((int) at + KEY_HI) == hi && buf.getLong((int) at + KEY_LO) == lo) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Adds a key that is not in the table (the caller just looked), in the first empty slot of its
     * run: key and fields first, the state word last, so a concurrent {@link #copySlot} that sees
     * the slot live sees all of it. The caller checked {@link #hasRoomForOneMore}.
     */
    void insert(long hi, long lo, IntentState s) {
        int i = home(hi, lo, mask);
        for (int n = 0; status(word((long) i * SLOT)) != EMPTY; n++) {
            if (n == slots) {
                throw new IllegalStateException("index table full"); // hasRoomForOneMore keeps it from happening
            }
            i = (i + 1) & mask;
        }
        int at = i * SLOT;
        buf.putLong(at + KEY_HI, hi);
        buf.putLong(at + KEY_LO, lo);
        putFieldsAndWord(at, s);
        live++;
    }

    /** Moves every live key of this table into {@code into} (a rehash; the caller holds the lock). */
    void copyLiveInto(IntentTable into) {
        for (int i = 0; i < slots; i++) {
            int at = i * SLOT;
            long w = word(at);
            if (status(w) != LIVE) {
                continue;
            }
            long hi = buf.getLong(at + KEY_HI);
            long lo = buf.getLong(at + KEY_LO);
            int j = home(hi, lo, into.mask);
            while (status(into.word((long) j * SLOT)) != EMPTY) {
                j = (j + 1) & into.mask;
            }
            int to = j * SLOT;
            for (int b = 0; b < SLOT; b += 8) {
                if (b != WORD) {
                    into.buf.putLong(to + b, buf.getLong(at + b));
                }
            }
            LONGS.setRelease(into.buf, to + WORD, w);
            into.live++;
        }
    }

    /** Replaces the state of a live slot. */
    void update(int slot, IntentState s) {
        putFieldsAndWord(slot * SLOT, s);
    }

    /** Forgets the key of a live slot, leaving a tombstone. */
    void remove(int slot) {
        int at = slot * SLOT;
        LONGS.setRelease(buf, at + WORD, (word(at) & ~3L) | TOMB);
        live--;
        tombs++;
    }

    private void putFieldsAndWord(int at, IntentState s) {
        buf.putLong(at + RETRY, s.retryAfterUntil());
        buf.putLong(at + RESULT, s.resultIndex());
        buf.putLong(at + LAST, s.lastMillis());
        long w = LIVE | (long) s.phase().ordinal() << 2
                | (long) (s.effectApplied() == null ? 0 : s.effectApplied().ordinal() + 1) << 6
                | (s.keySent() ? KEY_SENT_BIT : 0L)
                | (long) s.attempts() << 32;
        LONGS.setRelease(buf, at + WORD, w);
    }

    int statusAt(int slot) {
        return status(word((long) slot * SLOT));
    }

    long keyHi(int slot) {
        return buf.getLong(slot * SLOT + KEY_HI);
    }

    long keyLo(int slot) {
        return buf.getLong(slot * SLOT + KEY_LO);
    }

    IntentState state(int slot) {
        int at = slot * SLOT;
        return stateOf(buf, at, word(at));
    }

    /** The state in a slot laid out as this table lays one out, at {@code at} of {@code b}, its word {@code w}. */
    private static IntentState stateOf(ByteBuffer b, int at, long w) {
        int effect = (int) (w >>> 6) & 7;
        return new IntentState(PHASES[(int) (w >>> 2) & 15], (int) (w >>> 32), effect == 0 ? null : EFFECTS[effect - 1],
                b.getLong(at + RETRY), b.getLong(at + RESULT), b.getLong(at + LAST), null, (w & KEY_SENT_BIT) != 0);
    }

    /**
     * Of a slot as {@link #copySlot} wrote it into {@code copy} at {@code at}: its state when it is live and
     * not settled ({@link Phase#open}), else null. The snapshot's pass keeps these apart ({@link OpenIntents}).
     */
    static IntentState openIn(ByteBuffer copy, int at) {
        long w = copy.getLong(at + WORD);
        return status(w) == LIVE && PHASES[(int) (w >>> 2) & 15].open() ? stateOf(copy, at, w) : null;
    }

    /** The key of a slot as {@link #copySlot} wrote it into {@code copy} at {@code at}: high half, then low. */
    static long keyHiIn(ByteBuffer copy, int at) {
        return copy.getLong(at + KEY_HI);
    }

    static long keyLoIn(ByteBuffer copy, int at) {
        return copy.getLong(at + KEY_LO);
    }

    long lastMillis(int slot) {
        return buf.getLong(slot * SLOT + LAST);
    }

    /** The phase of a live slot, or null for an empty slot or a tombstone. */
    Phase liveIn(int slot) {
        long w = word((long) slot * SLOT);
        return status(w) == LIVE ? PHASES[(int) (w >>> 2) & 15] : null;
    }

    boolean unresolved(int slot) {
        long w = word((long) slot * SLOT);
        if (status(w) != LIVE) {
            return false;
        }
        return PHASES[(int) (w >>> 2) & 15].unresolved();
    }

    /**
     * Copies one slot into {@code out} (at its position) as a snapshot sees it, without the caller's
     * lock: the state word first (acquire), then the rest. A live slot's key never changes, so it is
     * whole; its fields may be from a later record than the word (a writer is updating it), which is
     * harmless: the snapshot covers an earlier journal index and the replay after it sets each
     * field again (see {@link StateTransitions}). Returns the status copied; anything but a live
     * slot is written as its status alone.
     */
    int copySlot(int slot, ByteBuffer out) {
        int at = slot * SLOT;
        long w = word(at);
        int status = status(w);
        int o = out.position();
        if (status == LIVE) {
            out.putLong(o + KEY_HI, buf.getLong(at + KEY_HI));
            out.putLong(o + KEY_LO, buf.getLong(at + KEY_LO));
            out.putLong(o + WORD, w);
            out.putLong(o + RETRY, buf.getLong(at + RETRY));
            out.putLong(o + RESULT, buf.getLong(at + RESULT));
            out.putLong(o + LAST, buf.getLong(at + LAST));
        } else {
            for (int b = 0; b < SLOT; b += 8) {
                out.putLong(o + b, b == WORD ? status : 0L);
            }
        }
        out.position(o + SLOT);
        return status;
    }

    private long word(long at) {
        return (long) LONGS.getAcquire(buf, (int) at + WORD);
    }

    private static int status(long w) {
        return (int) (w & 3);
    }
}

package dev.effectful.core.reentry;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.HexKeys;
import dev.effectful.core.journal.JournalFiles;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The intent index as it stood at one journal record, on disk, so a restart replays only the
 * journal after that record instead of all of it. It is a cache of the journal, never a source of
 * truth: anything wrong with it (bad checksum, other version, its record no longer in the journal)
 * means a full replay, and deleting it is always safe.
 *
 * <p>Format (version 3), little-endian: magic, version, the journal index it covers and the intent
 * key of the record there (so a replaced journal is noticed), the number of the index's stripes and
 * each stripe's table slots, the entries of the index's fallback map (keys that are not 32 hex
 * digits; each tagged, then an end tag), zeros up to a multiple of 64 bytes, each stripe's table
 * image in stripe order exactly as {@link IntentTable} lays it out in memory (each a multiple of 64
 * bytes, so each starts aligned), each stripe's counts of live slots and tombstones, the count of
 * fallback entries, and a CRC32C of all that. A restart maps the file copy-on-write, checks it whole,
 * and uses the images in place as its tables: no copy and no object per key.
 *
 * <p>The CLI reads it as well ({@link #readOnly}), mapped read-only beside the running agent, to list the
 * intents that are not settled without reading the journal before it.
 *
 * <p>Older versions are not read: version 1 (before the table) and version 2 (one table, before the
 * stripes). The start that finds one replays the whole journal once and writes a version 3 snapshot
 * at its next checkpoint.
 */
public final class IndexSnapshot {

    public static final String FILE_NAME = "index.snapshot";
    private static final int MAGIC = 0x45464958; // "EFIX"
    private static final int VERSION = 3;
    /** At most as many stripes as the index can choose among (the hash's top six bits). */
    private static final int MAX_STRIPES = 64;
    private static final Phase[] PHASES = Phase.values();
    private static final int TEXT_KEY = 0;
    private static final int END = 2;
    private static final int CHUNK = 1 << 20;

    /** Which journal record the snapshot covers: replay resumes after {@code lastIndex}. */
    public record Covers(long lastIndex, String lastKey, int entries) {
    }

    /** A snapshot read back: what it covers, its stripes' tables (over the mapped file) and its fallback entries. */
    record Loaded(Covers covers, List<IntentTable> tables, Map<String, IntentState> others) {
    }

    private IndexSnapshot() {
    }

    public static Path file(Path journalDir) {
        return journalDir.resolve(FILE_NAME);
    }

    /**
     * Writes atomically (temporary file, then a rename) and owner-only, like the journal, while
     * writers go on changing {@code tables} and {@code others}: see {@link IntentTable#copySlot} for
     * why a slot read mid-update is still sound. A table must not be rehashed in place; a rehash
     * makes a new table and leaves this one as it was. {@code tables} are the index's stripes, in order.
     */
    static void write(Path journalDir, long lastIndex, String lastKey, List<IntentTable> tables,
                      Map<String, IntentState> others) throws IOException {
        Path target = file(journalDir);
        Path tmp = journalDir.resolve(FILE_NAME + ".tmp");
        CRC32C crc = new CRC32C();
        ByteBuffer out = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        OpenIntents.Collector open = new OpenIntents.Collector();
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            JournalFiles.ownerOnly(tmp);
            out.putInt(MAGIC).putInt(VERSION).putLong(lastIndex);
            putUtf(out, lastKey == null ? "" : lastKey);
            out.putInt(tables.size());
            for (IntentTable table : tables) {
                out.putInt(table.slots);
            }
            int n = 0;
            for (Map.Entry<String, IntentState> e : others.entrySet()) {
                byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
                if (out.remaining() < key.length + 64) {
                    drain(out, ch, crc);
                }
                out.put((byte) TEXT_KEY);
                putUtf(out, e.getKey());
                putState(out, e.getValue());
                open.text(e.getKey(), e.getValue());
                n++;
            }
            out.put((byte) END);
            if (out.remaining() < 64) {
                drain(out, ch, crc);
            }
            // the image starts 64-byte aligned in the file, so mapped it is aligned for the table's atomic stores
            long written = ch.position() + out.position();
            for (long pad = (64 - written % 64) % 64; pad > 0; pad--) {
                out.put((byte) 0);
            }
            int[] counts = new int[2 * tables.size()];
            for (int s = 0; s < tables.size(); s++) {
                IntentTable table = tables.get(s);
                for (int i = 0; i < table.slots; i++) {
                    if (out.remaining() < IntentTable.SLOT) {
                        drain(out, ch, crc);
                    }
                    int status = table.copySlot(i, out);
                    open.slot(out, out.position() - IntentTable.SLOT);
                    counts[2 * s] += status == IntentTable.LIVE ? 1 : 0;
                    counts[2 * s + 1] += status == IntentTable.TOMB ? 1 : 0;
                }
            }
            for (int c : counts) {
                if (out.remaining() < 32) {
                    drain(out, ch, crc);
                }
                out.putInt(c);
            }
            if (out.remaining() < 32) {
                drain(out, ch, crc);
            }
            out.putInt(n);
            drain(out, ch, crc);
            out.putLong(crc.getValue());
            out.flip();
            while (out.hasRemaining()) {
                ch.write(out);
            }
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        // its own file, checked on its own: the listings read it without the snapshot (see OpenIntents)
        open.write(journalDir, lastIndex, lastKey == null ? "" : lastKey);
    }

    private static void drain(ByteBuffer out, FileChannel ch, CRC32C crc) throws IOException {
        out.flip();
        crc.update(out.duplicate());
        while (out.hasRemaining()) {
            ch.write(out);
        }
        out.clear();
    }

    /**
     * Reads the snapshot in {@code journalDir}: its tables are the file's images, mapped copy-on-write.
     * Empty when there is none or it is unusable: wrong size, checksum, magic, version (1 and 2 included),
     * alignment or counts.
     */
    static Optional<Loaded> read(Path journalDir) throws IOException {
        return read(journalDir, false);
    }

    /**
     * As {@link #read(Path)}; {@code readOnly} maps the file read-only instead of copy-on-write, for a
     * process that only looks (its tables must not be written) and may not be allowed to open it for writing.
     */
    private static Optional<Loaded> read(Path journalDir, boolean readOnly) throws IOException {
        Path f = file(journalDir);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        ByteBuffer buf = map(f, readOnly);
        if (buf == null) {
            return Optional.empty();
        }
        // checked whole before anything is believed: a flipped phase would replay a result wrongly
        CRC32C crc = new CRC32C();
        crc.update(buf.duplicate().limit(buf.capacity() - 8));
        if (buf.getLong(buf.capacity() - 8) != crc.getValue()) {
            return Optional.empty();
        }
        try {
            if (buf.getInt() != MAGIC || buf.getInt() != VERSION) {
                return Optional.empty();
            }
            long lastIndex = buf.getLong();
            String lastKey = utf(buf);
            int stripes = buf.getInt();
            if (Integer.bitCount(stripes) != 1 || stripes > MAX_STRIPES) {
                return Optional.empty();
            }
            int[] slots = new int[stripes];
            long imageBytes = 0;
            for (int s = 0; s < stripes; s++) {
                slots[s] = buf.getInt();
                // at least 4 slots (192 bytes): every image a multiple of 64 bytes, so the next starts aligned
                if (Integer.bitCount(slots[s]) != 1 || slots[s] < 4 || slots[s] > IntentTable.MAX_SLOTS) {
                    return Optional.empty();
                }
                imageBytes += IntentTable.bytes(slots[s]);
            }
            Map<String, IntentState> others = new HashMap<>();
            for (int tag = buf.get(); tag != END; tag = buf.get()) {
                if (tag != TEXT_KEY) {
                    return Optional.empty();
                }
                others.put(utf(buf), readState(buf));
            }
            buf.position((buf.position() + 63) & ~63);
            if (buf.remaining() != imageBytes + 8L * stripes + 12) {
                return Optional.empty();
            }
            int at = buf.position();
            int countsAt = at + (int) imageBytes;
            List<IntentTable> tables = new ArrayList<>(stripes);
            int entries = others.size();
            for (int s = 0; s < stripes; s++) {
                int bytes = (int) IntentTable.bytes(slots[s]);
                int live = buf.getInt(countsAt + 8 * s);
                int tombs = buf.getInt(countsAt + 8 * s + 4);
                // a slot only ever goes empty -> live -> tombstone, so a copy never counts more than the
                // table held: below the threshold, so probing always meets an empty slot
                if (live < 0 || tombs < 0 || (long) live + tombs >= IntentTable.threshold(slots[s])) {
                    return Optional.empty();
                }
                tables.add(IntentTable.over(slots[s], buf.slice(at, bytes), live, tombs));
                entries += live;
                at += bytes;
            }
            if (buf.getInt(countsAt + 8 * stripes) != others.size()) {
                return Optional.empty();
            }
            return Optional.of(new Loaded(new Covers(lastIndex, lastKey, entries), List.copyOf(tables), others));
        } catch (BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException damaged) {
            return Optional.empty();
        }
    }

    /** The file mapped copy-on-write, or read-only for a process that only looks; null when its size is unusable. */
    private static ByteBuffer map(Path f, boolean readOnly) throws IOException {
        // opened for writing (when not read-only) only because a copy-on-write mapping needs it: nothing is
        // written to the file
        try (FileChannel ch = readOnly ? FileChannel.open(f, StandardOpenOption.READ)
                : FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size < 40 || size > Integer.MAX_VALUE) {
                return null;
            }
            // private: the table's stores stay in this process; the file is replaced by a rename, never rewritten
            return ch.map(readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.PRIVATE, 0, size)
                    .order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /**
     * Opens the snapshot in {@code journalDir} for a reader beside the agent (the CLI): mapped read-only,
     * checked whole as a restart checks it, never written. The agent replaces the file by a rename, so
     * this maps either the old file or the new one, each complete. Empty when there is none or it is
     * unusable; whether it matches the journal (its {@link Covers#lastKey} at {@link Covers#lastIndex})
     * is the caller's to check, as a restart does.
     */
    public static Optional<View> readOnly(Path journalDir) {
        try {
            return read(journalDir, true).map(View::new);
        } catch (IOException | RuntimeException unusable) {
            return Optional.empty();
        }
    }

    /** Receives one remembered intent of a {@link View}. */
    @FunctionalInterface
    public interface Visitor {
        void visit(String intentKey, IntentState state);
    }

    /** A snapshot opened by {@link #readOnly}: what it covers, and its intents by phase or by key. */
    public static final class View {
        private final Loaded loaded;

        private View(Loaded loaded) {
            this.loaded = loaded;
        }

        public Covers covers() {
            return loaded.covers();
        }

        /**
         * Visits the intents whose phase is one of {@code phases}; the others cost a read of their
         * state word each and nothing more, so a pass over millions of settled intents stays short.
         */
        public void forEach(Set<Phase> phases, Visitor visitor) {
            boolean[] wanted = new boolean[PHASES.length];
            phases.forEach(p -> wanted[p.ordinal()] = true);
            loaded.others().forEach((k, s) -> {
                if (wanted[s.phase().ordinal()]) {
                    visitor.visit(k, s);
                }
            });
            for (IntentTable t : loaded.tables()) {
                for (int i = 0; i < t.slots; i++) {
                    Phase p = t.liveIn(i);
                    if (p != null && wanted[p.ordinal()]) {
                        visitor.visit(HexKeys.text(t.keyHi(i), t.keyLo(i)), t.state(i));
                    }
                }
            }
        }
    }

    private static final int KEY_SENT_MARK = 0x40;

    static void putState(ByteBuffer out, IntentState s) {
        // the key-sent mark rides in the phase byte (phases fit four bits); an older reader fails on it and replays
        out.put((byte) (s.phase().ordinal() | (s.keySent() ? KEY_SENT_MARK : 0)));
        out.putInt(s.attempts());
        out.put((byte) (s.effectApplied() == null ? 0 : s.effectApplied().ordinal() + 1));
        out.putLong(s.retryAfterUntil());
        out.putLong(s.resultIndex());
        out.putLong(s.lastMillis());
    }

    static IntentState readState(ByteBuffer in) {
        int phaseByte = in.get();
        Phase phase = PHASES[phaseByte & ~KEY_SENT_MARK];
        int attempts = in.getInt();
        int effect = in.get();
        Effect e = effect == 0 ? null : Effect.values()[effect - 1];
        return new IntentState(phase, attempts, e, in.getLong(), in.getLong(), in.getLong(), null,
                (phaseByte & KEY_SENT_MARK) != 0);
    }

    static void putUtf(ByteBuffer out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > 0xffff) {
            throw new IllegalArgumentException("key longer than 65535 bytes");
        }
        out.putShort((short) b.length).put(b);
    }

    static String utf(ByteBuffer in) {
        int len = Short.toUnsignedInt(in.getShort());
        byte[] b = new byte[len];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}

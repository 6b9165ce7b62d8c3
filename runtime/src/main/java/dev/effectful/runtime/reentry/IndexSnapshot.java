package dev.effectful.runtime.reentry;

import dev.effectful.runtime.journal.Effect;
import dev.effectful.runtime.journal.JournalFiles;

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
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The intent index as it stood at one journal record, on disk, so a restart replays only the
 * journal after that record instead of all of it. It is a cache of the journal, never a source of
 * truth: anything wrong with it (bad checksum, other version, its record no longer in the journal)
 * means a full replay, and deleting it is always safe.
 *
 * <p>Format (version 2), little-endian: magic, version, the journal index it covers and the intent
 * key of the record there (so a replaced journal is noticed), the number of table slots, the
 * entries of the index's fallback map (keys that are not 32 hex digits; each tagged, then an end
 * tag), zeros up to a multiple of 64 bytes, the table's image exactly as {@link IntentTable} lays it
 * out in memory, the counts of live slots, tombstones and fallback entries, and a CRC32C of all
 * that. A restart maps the file copy-on-write, checks it whole, and uses the image in place as its
 * table: no copy and no object per key.
 *
 * <p>Version 1 files (written before the table) are not read: the start that finds one replays
 * the whole journal once and writes a version 2 snapshot at its next checkpoint.
 */
public final class IndexSnapshot {

    public static final String FILE_NAME = "index.snapshot";
    private static final int MAGIC = 0x45464958; // "EFIX"
    private static final int VERSION = 2;
    private static final Phase[] PHASES = Phase.values();
    private static final int TEXT_KEY = 0;
    private static final int END = 2;
    private static final int CHUNK = 1 << 20;

    /** Which journal record the snapshot covers: replay resumes after {@code lastIndex}. */
    public record Covers(long lastIndex, String lastKey, int entries) {
    }

    /** A snapshot read back: what it covers, its table (over the mapped file) and its fallback entries. */
    record Loaded(Covers covers, IntentTable table, Map<String, IntentState> others) {
    }

    private IndexSnapshot() {
    }

    public static Path file(Path journalDir) {
        return journalDir.resolve(FILE_NAME);
    }

    /**
     * Writes atomically (temporary file, then a rename) and owner-only, like the journal, while
     * writers go on changing {@code table} and {@code others}: see {@link IntentTable#copySlot} for
     * why a slot read mid-update is still sound. {@code table} must not be rehashed in place; a
     * rehash makes a new table and leaves this one as it was.
     */
    static void write(Path journalDir, long lastIndex, String lastKey, IntentTable table,
                      Map<String, IntentState> others) throws IOException {
        Path target = file(journalDir);
        Path tmp = journalDir.resolve(FILE_NAME + ".tmp");
        CRC32C crc = new CRC32C();
        ByteBuffer out = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            JournalFiles.ownerOnly(tmp);
            out.putInt(MAGIC).putInt(VERSION).putLong(lastIndex);
            putUtf(out, lastKey == null ? "" : lastKey);
            out.putInt(table.slots);
            int n = 0;
            for (Map.Entry<String, IntentState> e : others.entrySet()) {
                byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
                if (out.remaining() < key.length + 64) {
                    drain(out, ch, crc);
                }
                out.put((byte) TEXT_KEY);
                putUtf(out, e.getKey());
                putState(out, e.getValue());
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
            int live = 0;
            int tombs = 0;
            for (int i = 0; i < table.slots; i++) {
                if (out.remaining() < IntentTable.SLOT) {
                    drain(out, ch, crc);
                }
                int status = table.copySlot(i, out);
                live += status == IntentTable.LIVE ? 1 : 0;
                tombs += status == IntentTable.TOMB ? 1 : 0;
            }
            if (out.remaining() < 32) {
                drain(out, ch, crc);
            }
            out.putInt(live).putInt(tombs).putInt(n);
            drain(out, ch, crc);
            out.putLong(crc.getValue());
            out.flip();
            while (out.hasRemaining()) {
                ch.write(out);
            }
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
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
     * Reads the snapshot in {@code journalDir}: its table is the file's image, mapped copy-on-write.
     * Empty when there is none or it is unusable: wrong size, checksum, magic, version (1 included),
     * alignment or counts.
     */
    static Optional<Loaded> read(Path journalDir) throws IOException {
        Path f = file(journalDir);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        ByteBuffer buf;
        // opened for writing only because a copy-on-write mapping needs it: nothing is written to the file
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size < 40 || size > Integer.MAX_VALUE) {
                return Optional.empty();
            }
            // private: the table's stores stay in this process; the file is replaced by a rename, never rewritten
            buf = ch.map(FileChannel.MapMode.PRIVATE, 0, size).order(ByteOrder.LITTLE_ENDIAN);
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
            int slots = buf.getInt();
            Map<String, IntentState> others = new HashMap<>();
            for (int tag = buf.get(); tag != END; tag = buf.get()) {
                if (tag != TEXT_KEY) {
                    return Optional.empty();
                }
                others.put(utf(buf), readState(buf));
            }
            buf.position((buf.position() + 63) & ~63);
            long imageBytes = IntentTable.bytes(slots);
            if (Integer.bitCount(slots) != 1 || slots > IntentTable.MAX_SLOTS || buf.remaining() != imageBytes + 20) {
                return Optional.empty();
            }
            ByteBuffer image = buf.slice(buf.position(), (int) imageBytes);
            buf.position(buf.position() + (int) imageBytes);
            int live = buf.getInt();
            int tombs = buf.getInt();
            // a slot only ever goes empty -> live -> tombstone, so a copy never counts more than the
            // table held: below the threshold, so probing always meets an empty slot
            if (buf.getInt() != others.size() || live < 0 || tombs < 0
                    || (long) live + tombs >= IntentTable.threshold(slots)) {
                return Optional.empty();
            }
            IntentTable table = IntentTable.over(slots, image, live, tombs);
            return Optional.of(new Loaded(new Covers(lastIndex, lastKey, live + others.size()), table, others));
        } catch (BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException damaged) {
            return Optional.empty();
        }
    }

    private static void putState(ByteBuffer out, IntentState s) {
        out.put((byte) s.phase().ordinal());
        out.putInt(s.attempts());
        out.put((byte) (s.effectApplied() == null ? 0 : s.effectApplied().ordinal() + 1));
        out.putLong(s.retryAfterUntil());
        out.putLong(s.resultIndex());
        out.putLong(s.lastMillis());
    }

    private static IntentState readState(ByteBuffer in) {
        Phase phase = PHASES[in.get()];
        int attempts = in.getInt();
        int effect = in.get();
        Effect e = effect == 0 ? null : Effect.values()[effect - 1];
        return new IntentState(phase, attempts, e, in.getLong(), in.getLong(), in.getLong());
    }

    private static void putUtf(ByteBuffer out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > 0xffff) {
            throw new IllegalArgumentException("key longer than 65535 bytes");
        }
        out.putShort((short) b.length).put(b);
    }

    private static String utf(ByteBuffer in) {
        int len = Short.toUnsignedInt(in.getShort());
        byte[] b = new byte[len];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}

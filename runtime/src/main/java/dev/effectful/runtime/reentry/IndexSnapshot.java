package dev.effectful.runtime.reentry;

import dev.effectful.runtime.journal.Effect;

import dev.effectful.runtime.journal.JournalFiles;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * The intent index as it stood at one journal record, on disk, so a restart replays only the
 * journal after that record instead of all of it. It is a cache of the journal, never a source of
 * truth: anything wrong with it (bad checksum, other version, its record no longer in the journal)
 * means a full replay, and deleting it is always safe.
 *
 * <p>Format (version 1): magic, version, the journal index it covers and the intent key of the
 * record there (so a replaced journal is noticed), the entries (each tagged), an end tag, the
 * entry count, a CRC32 of all that. Keys that are 64 lowercase hex digits (all of ours) are stored as their 32 bytes.
 */
public final class IndexSnapshot {

    public static final String FILE_NAME = "index.snapshot";
    private static final int MAGIC = 0x45464958; // "EFIX"
    private static final int VERSION = 1;
    private static final Phase[] PHASES = Phase.values();
    private static final int TEXT_KEY = 0;
    private static final int HEX_KEY = 1;
    private static final int END = 2;

    /** Which journal record the snapshot covers: replay resumes after {@code lastIndex}. */
    public record Covers(long lastIndex, String lastKey, int entries) {
    }

    private IndexSnapshot() {
    }

    public static Path file(Path journalDir) {
        return journalDir.resolve(FILE_NAME);
    }

    /** Writes atomically (temporary file, then a rename) and owner-only, like the journal. */
    public static void write(Path journalDir, long lastIndex, String lastKey, Map<String, IntentState> states)
            throws IOException {
        Path target = file(journalDir);
        Path tmp = journalDir.resolve(FILE_NAME + ".tmp");
        CRC32 crc = new CRC32();
        try (OutputStream raw = Files.newOutputStream(tmp);
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new CheckedOutputStream(raw, crc), 1 << 16))) {
            JournalFiles.ownerOnly(tmp);
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(lastIndex);
            out.writeUTF(lastKey == null ? "" : lastKey);
            // the map may change while it is written (see the engine's checkpoints): the count
            // comes after the entries, each of which starts with a tag
            int n = 0;
            for (Map.Entry<String, IntentState> e : states.entrySet()) {
                writeEntry(out, e.getKey(), e.getValue());
                n++;
            }
            out.writeByte(END);
            out.writeInt(n);
            out.flush();
            out.writeLong(crc.getValue());
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Loads the snapshot into {@code into} (which must be empty). Empty when there is none or it is
     * unusable; {@code into} is then left empty too.
     */
    public static Optional<Covers> read(Path journalDir, Map<String, IntentState> into) throws IOException {
        Path f = file(journalDir);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        ByteBuffer buf;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < 32 || size > Integer.MAX_VALUE) {
                return Optional.empty();
            }
            buf = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
        }
        // checked whole before anything is believed: a flipped phase would replay a result wrongly
        CRC32 crc = new CRC32();
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
            int n = 0;
            for (int tag = buf.get(); tag != END; tag = buf.get()) {
                String key = readKey(tag, buf);
                into.put(key, readState(buf));
                n++;
            }
            if (buf.getInt() != n) {
                into.clear();
                return Optional.empty();
            }
            return Optional.of(new Covers(lastIndex, lastKey, n));
        } catch (BufferUnderflowException | IllegalArgumentException | ArrayIndexOutOfBoundsException damaged) {
            into.clear();
            return Optional.empty();
        }
    }

    private static void writeEntry(DataOutputStream out, String key, IntentState s) throws IOException {
        byte[] hex = hexBytes(key);
        if (hex != null) {
            out.writeByte(HEX_KEY);
            out.write(hex);
        } else {
            out.writeByte(TEXT_KEY);
            out.writeUTF(key);
        }
        out.writeByte(s.phase().ordinal());
        out.writeInt(s.attempts());
        out.writeUTF(s.effectApplied() == null ? "" : s.effectApplied().word());
        out.writeLong(s.retryAfterUntil());
        out.writeLong(s.resultIndex());
        out.writeLong(s.lastMillis());
    }

    private static String readKey(int tag, ByteBuffer in) {
        if (tag == TEXT_KEY) {
            return utf(in);
        }
        if (tag != HEX_KEY) {
            throw new IllegalArgumentException("unknown entry tag " + tag);
        }
        char[] c = new char[64];
        for (int i = 0; i < 32; i++) {
            byte b = in.get();
            c[2 * i] = Character.forDigit((b >> 4) & 0xf, 16);
            c[2 * i + 1] = Character.forDigit(b & 0xf, 16);
        }
        return new String(c);
    }

    private static IntentState readState(ByteBuffer in) {
        Phase phase = PHASES[in.get()];
        int attempts = in.getInt();
        String effect = utf(in);
        long retryUntil = in.getLong();
        long resultIndex = in.getLong();
        long lastMillis = in.getLong();
        return new IntentState(phase, attempts, Effect.fromWord(effect), retryUntil, resultIndex,
                lastMillis);
    }

    /** As written by {@link DataOutputStream#writeUTF}; our strings are plain ASCII, where that is UTF-8. */
    private static String utf(ByteBuffer in) {
        int len = Short.toUnsignedInt(in.getShort());
        byte[] b = new byte[len];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The 32 bytes of a 64-digit lowercase hex key; null for any other key. */
    private static byte[] hexBytes(String key) {
        if (key.length() != 64) {
            return null;
        }
        byte[] out = new byte[32];
        for (int i = 0; i < 32; i++) {
            int hi = Character.digit(key.charAt(2 * i), 16);
            int lo = Character.digit(key.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0 || Character.isUpperCase(key.charAt(2 * i)) || Character.isUpperCase(key.charAt(2 * i + 1))) {
                return null;
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }
}

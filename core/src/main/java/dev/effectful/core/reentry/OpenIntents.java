package dev.effectful.core.reentry;

import dev.effectful.core.journal.HexKeys;
import dev.effectful.core.journal.JournalFiles;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The intents that are not settled ({@link Phase#open}) as of the index snapshot's journal record, in a small
 * file of their own beside it ({@value #FILE_NAME}), written in the same pass from the same slot copies. The
 * operator's listings ({@code journal unresolved}, {@code journal approvals}, the console's desk) read this
 * instead of the snapshot: the snapshot holds every remembered intent (768 MiB at ten million) and is checked
 * whole before anything in it is believed, while the open intents are a few in a hundred. Like the snapshot it is
 * a cache of the journal: missing or unusable (checksum, version, size), the reader turns to the snapshot, and
 * from there to the journal; whether it matches the journal ({@link IndexSnapshot.Covers}) is the reader's to check.
 *
 * <p>Format (version 1), little-endian: magic, version, the journal index covered and the intent key of the record
 * there, the number of slot entries, then of text-key entries; each slot entry as {@link IntentTable} lays out a
 * slot (48 bytes: key halves, state word, fields); each text-key entry (a key that is not 32 hex digits) as the
 * snapshot writes one; a CRC32C of all that.
 */
public final class OpenIntents {

    public static final String FILE_NAME = IndexSnapshot.FILE_NAME + ".open";
    private static final int MAGIC = 0x4546494F; // "EFIO"
    private static final int VERSION = 1;
    /** Larger than any listing a person reads: a file claiming more is damaged. */
    private static final int MAX_ENTRIES = 1 << 26;

    private final IndexSnapshot.Covers covers;
    private final ByteBuffer slots;
    private final int slotCount;
    private final Map<String, IntentState> texts;

    private OpenIntents(IndexSnapshot.Covers covers, ByteBuffer slots, int slotCount, Map<String, IntentState> texts) {
        this.covers = covers;
        this.slots = slots;
        this.slotCount = slotCount;
        this.texts = texts;
    }

    /** Which journal record these are as of; {@link IndexSnapshot.Covers#entries} counts the open intents. */
    public IndexSnapshot.Covers covers() {
        return covers;
    }

    /** Visits every open intent. */
    public void forEach(IndexSnapshot.Visitor visitor) {
        texts.forEach(visitor::visit);
        for (int i = 0; i < slotCount; i++) {
            int at = i * IntentTable.SLOT;
            visitor.visit(HexKeys.text(IntentTable.keyHiIn(slots, at), IntentTable.keyLoIn(slots, at)),
                    IntentTable.openIn(slots, at));
        }
    }

    /** The file in {@code journalDir}, read and checked whole; empty when there is none or it is unusable. */
    public static Optional<OpenIntents> read(Path journalDir) {
        Path f = journalDir.resolve(FILE_NAME);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < 32 || size > Integer.MAX_VALUE) {
                return Optional.empty();
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // a file replaced by a rename is read whole from the one opened
            }
            buf.flip();
            CRC32C crc = new CRC32C();
            crc.update(buf.duplicate().limit(buf.limit() - 8));
            if (buf.limit() != size || buf.getLong(buf.limit() - 8) != crc.getValue()
                    || buf.getInt() != MAGIC || buf.getInt() != VERSION) {
                return Optional.empty();
            }
            long lastIndex = buf.getLong();
            String lastKey = IndexSnapshot.utf(buf);
            int slotCount = buf.getInt();
            int textCount = buf.getInt();
            if (slotCount < 0 || textCount < 0 || slotCount > MAX_ENTRIES || textCount > MAX_ENTRIES
                    || (long) slotCount * IntentTable.SLOT > buf.remaining()) {
                return Optional.empty();
            }
            ByteBuffer slotBytes = buf.slice(buf.position(), slotCount * IntentTable.SLOT).order(ByteOrder.LITTLE_ENDIAN);
            buf.position(buf.position() + slotCount * IntentTable.SLOT);
            for (int i = 0; i < slotCount; i++) {
                if (IntentTable.openIn(slotBytes, i * IntentTable.SLOT) == null) {
                    return Optional.empty(); // only open intents are written here
                }
            }
            Map<String, IntentState> texts = new LinkedHashMap<>();
            for (int i = 0; i < textCount; i++) {
                texts.put(IndexSnapshot.utf(buf), IndexSnapshot.readState(buf));
            }
            if (buf.remaining() != 8) {
                return Optional.empty();
            }
            IndexSnapshot.Covers covers = new IndexSnapshot.Covers(lastIndex, lastKey, slotCount + textCount);
            return Optional.of(new OpenIntents(covers, slotBytes, slotCount, texts));
        } catch (IOException | BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException unusable) {
            return Optional.empty();
        }
    }

    /** Gathers the open intents while the snapshot's pass copies each slot, then writes them. */
    static final class Collector {
        private ByteBuffer slots = ByteBuffer.allocate(64 * IntentTable.SLOT).order(ByteOrder.LITTLE_ENDIAN);
        private int slotCount;
        private final Map<String, IntentState> texts = new LinkedHashMap<>();

        /** The slot {@link IntentTable#copySlot} just wrote into {@code copy} at {@code at}. */
        void slot(ByteBuffer copy, int at) {
            if (IntentTable.openIn(copy, at) == null) {
                return;
            }
            if (slots.remaining() < IntentTable.SLOT) {
                ByteBuffer bigger = ByteBuffer.allocate(slots.capacity() * 2).order(ByteOrder.LITTLE_ENDIAN);
                bigger.put(slots.flip());
                slots = bigger;
            }
            slots.put(copy.slice(at, IntentTable.SLOT));
            slotCount++;
        }

        /** An entry of the index's map of keys that are not 32 hex digits. */
        void text(String key, IntentState state) {
            if (state.phase().open()) {
                texts.put(key, state);
            }
        }

        /** Writes the file atomically and owner-only, as of {@code lastIndex} and its record's {@code lastKey}. */
        void write(Path journalDir, long lastIndex, String lastKey) throws IOException {
            Path tmp = journalDir.resolve(FILE_NAME + ".tmp");
            ByteBuffer head = ByteBuffer.allocate(64 + 2 * lastKey.length() * 3).order(ByteOrder.LITTLE_ENDIAN);
            head.putInt(MAGIC).putInt(VERSION).putLong(lastIndex);
            IndexSnapshot.putUtf(head, lastKey);
            head.putInt(slotCount).putInt(texts.size());
            ByteBuffer tail = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
            for (Map.Entry<String, IntentState> e : texts.entrySet()) {
                int need = 3 * e.getKey().length() + 64;
                if (tail.remaining() < need) {
                    tail = ByteBuffer.allocate(2 * tail.capacity() + need).order(ByteOrder.LITTLE_ENDIAN).put(tail.flip());
                }
                IndexSnapshot.putUtf(tail, e.getKey());
                IndexSnapshot.putState(tail, e.getValue());
            }
            ByteBuffer[] parts = {head.flip(), slots.duplicate().flip(), tail.flip()};
            CRC32C crc = new CRC32C();
            for (ByteBuffer p : parts) {
                crc.update(p.duplicate());
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                JournalFiles.ownerOnly(tmp);
                for (ByteBuffer p : parts) {
                    while (p.hasRemaining()) {
                        ch.write(p);
                    }
                }
                ByteBuffer sum = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(crc.getValue()).flip();
                while (sum.hasRemaining()) {
                    ch.write(sum);
                }
            }
            Files.move(tmp, journalDir.resolve(FILE_NAME), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }
}

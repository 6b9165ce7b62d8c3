package dev.effectful.core.reentry;

import dev.effectful.core.journal.HexKeys;
import dev.effectful.core.journal.Effect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataOutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class IndexSnapshotTest {

    @TempDir
    Path dir;

    private final Map<String, IntentState> states = new HashMap<>();
    private final Map<String, IntentState> others = new HashMap<>();
    private IntentTable table;

    /** A table with every phase and effect, some slots forgotten, and two keys that are not ours. */
    private void sample() throws Exception {
        table = IntentTable.create(null, 2048);
        for (int i = 0; i < 1000; i++) {
            String key = String.format("%032x", i * 7919L);
            Phase phase = Phase.values()[i % Phase.values().length];
            Effect effect = i % 5 == 0 ? null : Effect.values()[i % 4];
            IntentState s = new IntentState(phase, 1 + i % 3, effect, i * 10L, i % 2 == 0 ? -1 : i, 1_764_000_000_000L + i,
                    null, i % 7 == 0);
            table.insert(HexKeys.half(key, 0), HexKeys.half(key, 1), s);
            states.put(key, s);
        }
        for (int i = 0; i < 1000; i += 10) {
            String key = String.format("%032x", i * 7919L);
            table.remove(table.find(HexKeys.half(key, 0), HexKeys.half(key, 1)));
            states.remove(key);
        }
        others.put("not-a-hex-key: keyable create #3", new IntentState(Phase.UNKNOWN, 2, Effect.UNKNOWN, 0, -1, 5L, null, true));
        others.put("ABCDEF" + "0".repeat(26), new IntentState(Phase.OK, 1, Effect.YES, 0, 77, 6L));
    }

    private void write() throws Exception {
        IndexSnapshot.write(dir, 9L, "k", java.util.List.of(table), others);
    }

    @Test
    void everyStateReadsBackExactlyWithWhatTheSnapshotCovers() throws Exception {
        sample();
        IndexSnapshot.write(dir, 0x1234L, "k-last", java.util.List.of(table), others);
        var loaded = IndexSnapshot.read(dir).orElseThrow();
        assertThat(loaded.covers().lastIndex()).isEqualTo(0x1234L);
        assertThat(loaded.covers().lastKey()).isEqualTo("k-last");
        assertThat(loaded.covers().entries()).isEqualTo(states.size() + others.size());
        assertThat(loaded.others()).isEqualTo(others);
        assertThat(loaded.tables().get(0).live).isEqualTo(states.size());
        assertThat(loaded.tables().get(0).tombs).isEqualTo(100);
        for (Map.Entry<String, IntentState> e : states.entrySet()) {
            int slot = loaded.tables().get(0).find(HexKeys.half(e.getKey(), 0), HexKeys.half(e.getKey(), 1));
            assertThat(loaded.tables().get(0).state(slot)).isEqualTo(e.getValue());
        }
        assertThat(loaded.tables().get(0).find(HexKeys.half(String.format("%032x", 0), 0), 0)).as("forgotten").isEqualTo(-1);
        assertThat(Files.getPosixFilePermissions(IndexSnapshot.file(dir)))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        // a bulk image: about a table's bytes per slot and nothing per entry beyond it
        assertThat(Files.size(IndexSnapshot.file(dir))).isLessThan(2048L * IntentTable.SLOT + 300);
    }

    @Test
    void aSingleFlippedByteAnywhereMeansNoSnapshotRatherThanAWrongOne() throws Exception {
        sample();
        write();
        Path f = IndexSnapshot.file(dir);
        long size = Files.size(f);
        for (long at : new long[] {0, 5, 20, 40, size / 3, size / 2, size - 21, size - 12, size - 1}) {
            write();
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                raf.seek(at);
                int b = raf.read();
                raf.seek(at);
                raf.write(b ^ 0x10);
            }
            assertThat(IndexSnapshot.read(dir)).as("flipped at %d", at).isEmpty();
        }
    }

    @Test
    void aTruncatedOrMissingSnapshotIsNone() throws Exception {
        assertThat(IndexSnapshot.read(dir)).isEmpty();
        sample();
        write();
        Path f = IndexSnapshot.file(dir);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(Files.size(f) / 3);
        }
        assertThat(IndexSnapshot.read(dir)).isEmpty();
    }

    @Test
    void aVersionOneSnapshotIsIgnoredSoTheStartReplaysTheWholeJournal() throws Exception {
        // the header of the format before the table: magic, version 1, then per-entry records
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(IndexSnapshot.file(dir)))) {
            out.writeInt(0x45464958);
            out.writeInt(1);
            out.writeLong(9L);
            out.writeUTF("k");
            out.writeByte(2);
            out.writeInt(0);
            out.write(new byte[64]);
        }
        LocalIntentIndex index = new LocalIntentIndex();
        assertThat(index.loadSnapshot(dir)).isEmpty();
        assertThat(index.size()).isZero();
    }

    /**
     * Version 2 held one table, before the index was striped: its keys are not where a striped index
     * looks for them, so a whole, checksummed version 2 file is ignored (a full replay) rather than read.
     */
    @Test
    void aVersionTwoSnapshotIsIgnoredSoTheStartReplaysTheWholeJournal() throws Exception {
        sample();
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(64 + 2048 * IntentTable.SLOT + 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        out.putInt(0x45464958).putInt(2).putLong(9L).putShort((short) 1).put((byte) 'k').putInt(2048).put((byte) 2);
        out.position(64);
        for (int i = 0; i < 2048; i++) {
            table.copySlot(i, out);
        }
        out.putInt(table.live).putInt(table.tombs).putInt(0);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(out.array(), 0, out.position());
        byte[] bytes = java.util.Arrays.copyOf(out.array(), out.position() + 8);
        java.nio.ByteBuffer.wrap(bytes, out.position(), 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(crc.getValue());
        Files.write(IndexSnapshot.file(dir), bytes);

        LocalIntentIndex index = new LocalIntentIndex();
        assertThat(index.loadSnapshot(dir)).isEmpty();
        assertThat(index.size()).isZero();
        // the same content as version 3 is read: what was refused is the version, nothing else
        IndexSnapshot.write(dir, 9L, "k", java.util.List.of(table), Map.of());
        assertThat(index.loadSnapshot(dir)).hasValueSatisfying(c -> assertThat(c.entries()).isEqualTo(states.size()));
    }

    /** Each stripe's table reads back in its place: the counts and images are per stripe. */
    @Test
    void stripesOfDifferentSizesReadBackEachInItsPlace() throws Exception {
        sample();
        IntentTable small = IntentTable.create(null, IntentTable.MIN_SLOTS);
        String alone = "0123456789abcdef0123456789abcdef";
        IntentState s = new IntentState(Phase.OK, 3, Effect.YES, 0, 42, 7L);
        small.insert(HexKeys.half(alone, 0), HexKeys.half(alone, 1), s);
        IndexSnapshot.write(dir, 9L, "k", java.util.List.of(small, table), others);
        var loaded = IndexSnapshot.read(dir).orElseThrow();
        assertThat(loaded.tables()).extracting(t -> t.slots).containsExactly(IntentTable.MIN_SLOTS, 2048);
        assertThat(loaded.tables()).extracting(t -> t.live).containsExactly(1, states.size());
        assertThat(loaded.tables()).extracting(t -> t.tombs).containsExactly(0, 100);
        IntentTable first = loaded.tables().get(0);
        assertThat(first.state(first.find(HexKeys.half(alone, 0), HexKeys.half(alone, 1)))).isEqualTo(s);
        IntentTable second = loaded.tables().get(1);
        for (Map.Entry<String, IntentState> e : states.entrySet()) {
            assertThat(second.state(second.find(HexKeys.half(e.getKey(), 0), HexKeys.half(e.getKey(), 1)))).isEqualTo(e.getValue());
        }
        assertThat(loaded.covers().entries()).isEqualTo(1 + states.size() + others.size());
    }
}

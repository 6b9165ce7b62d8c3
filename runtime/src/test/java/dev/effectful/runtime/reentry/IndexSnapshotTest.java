package dev.effectful.runtime.reentry;

import dev.effectful.runtime.journal.Effect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    private static Map<String, IntentState> sample() {
        Map<String, IntentState> m = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            String key = String.format("%064x", i * 7919L);
            Phase phase = Phase.values()[i % Phase.values().length];
            m.put(key, new IntentState(phase, 1 + i % 3, i % 4 == 0 ? null : Effect.YES, i * 10L, i % 2 == 0 ? -1 : i,
                    1_764_000_000_000L + i));
        }
        m.put("not-a-hex-key: keyable create #3", new IntentState(Phase.UNKNOWN, 2, Effect.UNKNOWN, 0, -1, 5L));
        m.put("ABCDEF" + "0".repeat(58), new IntentState(Phase.OK, 1, Effect.YES, 0, 77, 6L));
        return m;
    }

    @Test
    void everyStateReadsBackExactlyWithWhatTheSnapshotCovers() throws Exception {
        Map<String, IntentState> states = sample();
        IndexSnapshot.write(dir, 0x1234L, "k-last", states);
        Map<String, IntentState> back = new HashMap<>();
        var covers = IndexSnapshot.read(dir, back);
        assertThat(covers).hasValueSatisfying(c -> {
            assertThat(c.lastIndex()).isEqualTo(0x1234L);
            assertThat(c.lastKey()).isEqualTo("k-last");
            assertThat(c.entries()).isEqualTo(states.size());
        });
        assertThat(back).isEqualTo(states);
        assertThat(Files.getPosixFilePermissions(IndexSnapshot.file(dir)))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aSingleFlippedByteAnywhereMeansNoSnapshotRatherThanAWrongOne() throws Exception {
        IndexSnapshot.write(dir, 9L, "k", sample());
        Path f = IndexSnapshot.file(dir);
        long size = Files.size(f);
        for (long at : new long[] {0, 20, size / 2, size - 12, size - 1}) {
            IndexSnapshot.write(dir, 9L, "k", sample());
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                raf.seek(at);
                int b = raf.read();
                raf.seek(at);
                raf.write(b ^ 0x10);
            }
            Map<String, IntentState> back = new HashMap<>();
            assertThat(IndexSnapshot.read(dir, back)).as("flipped at %d", at).isEmpty();
            assertThat(back).isEmpty();
        }
    }

    @Test
    void aTruncatedOrMissingSnapshotIsNone() throws Exception {
        Map<String, IntentState> back = new HashMap<>();
        assertThat(IndexSnapshot.read(dir, back)).isEmpty();
        IndexSnapshot.write(dir, 9L, "k", sample());
        Path f = IndexSnapshot.file(dir);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(Files.size(f) / 3);
        }
        assertThat(IndexSnapshot.read(dir, back)).isEmpty();
        assertThat(back).isEmpty();
    }
}

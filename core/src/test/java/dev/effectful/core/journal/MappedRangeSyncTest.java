package dev.effectful.core.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MappedRangeSyncTest {

    @TempDir
    Path tmp;

    private Path sparse(String name, long size) throws IOException {
        Path f = tmp.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(size);
        }
        return f;
    }

    @Test
    void forcesRangesInsideAndAcrossWindowsWithoutGrowingTheFile() throws IOException {
        long size = MappedRangeSync.WINDOW + (1 << 20);
        Path f = sparse("cycle.cq4", size);
        MappedRangeSync sync = new MappedRangeSync();
        sync.force(f, 65_536, 66_000);
        sync.force(f, 66_000, 67_000); // same window, reused
        sync.force(f, MappedRangeSync.WINDOW - 100, MappedRangeSync.WINDOW + 100); // spans two windows
        sync.force(f, 10, 10); // empty: nothing to do
        assertThat(Files.size(f)).as("a read-only mapping never extends the file").isEqualTo(size);
    }

    @Test
    void aRangePastTheEndOfTheFileIsAnErrorNotAFileExtension() throws IOException {
        Path f = sparse("short.cq4", 4096);
        MappedRangeSync sync = new MappedRangeSync();
        assertThatThrownBy(() -> sync.force(f, 0, 8192)).isInstanceOf(IOException.class).hasMessageContaining("the file ends at 4096");
        assertThat(Files.size(f)).isEqualTo(4096);
    }

    @Test
    void aFileThatGrewIsRemapped() throws IOException {
        Path f = sparse("growing.cq4", 4096);
        MappedRangeSync sync = new MappedRangeSync();
        sync.force(f, 0, 4096);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(1 << 20);
        }
        sync.force(f, 4096, 500_000);
        assertThat(Files.size(f)).isEqualTo(1 << 20);
    }
}

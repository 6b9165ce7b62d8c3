package dev.effectful.runtime.journal;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Is the journal's disk still able to keep a new intent? Asked before each intent is written,
 * answered from a cache refreshed at most every {@code refreshMillis}, so the hot path costs a
 * volatile read.
 *
 * <p>Why not just let the append fail: Chronicle writes through a memory map. On a full disk the
 * store under the map cannot give a page and the JVM gets SIGBUS (an {@code InternalError} in the
 * middle of a record, leaving Chronicle's write lock held); on a file system that turned read-only
 * the map accepts writes that will never reach the disk. Neither says "no" at the moment it should,
 * so the engine must ask first. Two checks:
 * <ul>
 *   <li>usable space below the reserve: "disk full", so in-flight calls still have room for their
 *       outcome records;</li>
 *   <li>a probe file cannot be created in the directory: "read-only" (or not writable).</li>
 * </ul>
 */
public final class JournalHealth {

    private final Path dir;
    private final long reserveBytes;
    private final long refreshNanos;
    private final LongSupplier clock;
    private volatile long checkedAt;
    private volatile Optional<String> problem = Optional.empty();
    private volatile boolean checkedOnce;

    public JournalHealth(Path dir, long reserveBytes, long refreshMillis) {
        this(dir, reserveBytes, refreshMillis, System::nanoTime);
    }

    JournalHealth(Path dir, long reserveBytes, long refreshMillis, LongSupplier clock) {
        this.dir = dir;
        this.reserveBytes = reserveBytes;
        this.refreshNanos = refreshMillis * 1_000_000L;
        this.clock = clock;
    }

    /** Why a new intent must not be written now, or empty when the disk can take it. */
    public Optional<String> problem() {
        long now = clock.getAsLong();
        if (!checkedOnce || now - checkedAt >= refreshNanos) {
            synchronized (this) {
                if (!checkedOnce || now - checkedAt >= refreshNanos) {
                    problem = check();
                    checkedAt = clock.getAsLong();
                    checkedOnce = true;
                }
            }
        }
        return problem;
    }

    private Optional<String> check() {
        try {
            FileStore store = Files.getFileStore(dir);
            long free = store.getUsableSpace();
            if (free < reserveBytes) {
                return Optional.of("disk full (" + free + " bytes free in " + dir + ", effectful keeps " + reserveBytes
                        + " in reserve; set effectful.journal.reserve to change it)");
            }
        } catch (IOException e) {
            return Optional.of("cannot read the free space of " + dir + ": " + e.getMessage());
        }
        Path probe = dir.resolve(".effectful-write-probe");
        try {
            Files.deleteIfExists(probe);
            Files.createFile(probe);
            Files.delete(probe);
            return Optional.empty();
        } catch (IOException e) {
            String why = e.getMessage() != null && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("read-only")
                    ? "read-only file system" : e.getClass().getSimpleName() + ": " + e.getMessage();
            return Optional.of("directory read-only: " + dir + " (" + why + ")");
        }
    }
}

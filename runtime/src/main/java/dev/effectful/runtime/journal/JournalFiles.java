package dev.effectful.runtime.journal;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Journal files hold arguments and results: readable by their owner only. */
public final class JournalFiles {

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private JournalFiles() {
    }

    /** Creates the directory (and parents) owner-only, or tightens an existing one. */
    public static void ensureDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
        }
        if (POSIX) {
            Files.setPosixFilePermissions(dir, DIR);
        }
    }

    public static void ownerOnly(Path file) {
        if (POSIX) {
            try {
                Files.setPosixFilePermissions(file, FILE);
            } catch (IOException | UnsupportedOperationException ignored) {
                // the directory is owner-only already; this is defence in depth
            }
        }
    }

    /** True when the directory holds a Chronicle journal (its metadata or a cycle file). */
    public static boolean looksLikeJournal(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (var files = Files.list(dir)) {
            return files.anyMatch(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(".cq4") || n.endsWith(".cq4t");
            });
        } catch (IOException e) {
            return false;
        }
    }
}

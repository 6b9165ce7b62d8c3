package dev.effectful.core.journal;

import dev.effectful.core.log.AgentLog;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Journal files hold arguments and results: readable by their owner only. Also decides which
 * directory may become a journal, so that a journal path pointing at a directory of other files
 * (a typo, {@code journal=.}) never has its permissions changed or Effectful files written into it.
 */
public final class JournalFiles {

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    /** A fresh file system's root has it; a volume mounted as the journal directory is still "empty". */
    private static final String LOST_FOUND = "lost+found";

    /**
     * The name of the key-format mark ({@code keys.KeyFormat} writes and reads it). The name is kept
     * here, with the journal directory's other file names, so that this class can recognise the mark
     * without importing the keys package, which already depends on the journal.
     */
    public static final String KEY_FORMAT_FILE = "key-format";

    private JournalFiles() {
    }

    /**
     * Makes {@code dir} ready to hold the journal, or refuses it:
     * <ul>
     *   <li>missing: created (parents too), the directory itself owner-only;</li>
     *   <li>an existing empty directory, or a journal (it holds at least one {@link #isJournalFile}):
     *       used; if it or the journal's own files are open to others they are tightened, with one
     *       warning (other files in it are left alone);</li>
     *   <li>an existing directory with only other files: refused, untouched
     *       ({@link JournalProblem.Cause#NOT_A_JOURNAL});</li>
     *   <li>a file, or a file where a parent directory should be: refused ({@link JournalProblem.Cause#NOT_A_DIRECTORY}).</li>
     * </ul>
     */
    public static void ensureDirectory(Path dir) throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new JournalDirectoryException(JournalProblem.Cause.NOT_A_DIRECTORY, "the journal path " + dir
                    + " is a file, not a directory; set effectful.journal.dir to a new or empty directory");
        }
        if (!Files.exists(dir)) {
            create(dir);
            return;
        }
        List<Path> entries = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> !LOST_FOUND.equals(p.getFileName().toString())).forEach(entries::add);
        } catch (AccessDeniedException e) {
            throw new JournalDirectoryException(JournalProblem.Cause.PERMISSION_DENIED, "permission denied on the journal"
                    + " directory " + dir + "; give the process's user read and write access or set effectful.journal.dir");
        }
        List<Path> own = entries.stream().filter(p -> isJournalFile(p.getFileName().toString())).toList();
        if (own.isEmpty() && !entries.isEmpty()) {
            throw new JournalDirectoryException(JournalProblem.Cause.NOT_A_JOURNAL, "the journal directory " + dir
                    + " is not empty and holds no Effectful journal (it has " + describe(entries) + "); effectful"
                    + " neither writes into it nor changes its permissions: set effectful.journal.dir to a new or"
                    + " empty directory, e.g. " + dir.resolve("effectful-journal"));
        }
        java.util.Optional<String> foreign = JournalOwners.inaccessible(dir, own);
        if (foreign.isPresent()) {
            throw new JournalDirectoryException(JournalProblem.Cause.PERMISSION_DENIED, foreign.get());
        }
        tighten(dir, own);
    }

    private static void create(Path dir) throws IOException {
        for (Path p = dir.getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new JournalDirectoryException(JournalProblem.Cause.NOT_A_DIRECTORY, "cannot create the journal"
                            + " directory " + dir + ": " + p + " is a file, not a directory; set effectful.journal.dir"
                            + " to a path under a directory");
                }
                break;
            }
        }
        try {
            Files.createDirectories(dir);
        } catch (AccessDeniedException e) {
            throw new JournalDirectoryException(JournalProblem.Cause.PERMISSION_DENIED, "cannot create the journal"
                    + " directory " + dir + ": permission denied on " + e.getFile() + "; create it for the process's"
                    + " user or set effectful.journal.dir");
        }
        if (POSIX) {
            Files.setPosixFilePermissions(dir, DIR);
        }
    }

    /** The journal's own files, and the directory, owner-only; one warning if anything had to change. */
    private static void tighten(Path dir, List<Path> own) throws IOException {
        if (!POSIX) {
            return;
        }
        List<String> changed = new ArrayList<>();
        Set<PosixFilePermission> dirMode = Files.getPosixFilePermissions(dir);
        if (!dirMode.equals(DIR)) {
            Files.setPosixFilePermissions(dir, DIR);
            changed.add(dir + " (was " + PosixFilePermissions.toString(dirMode) + ")");
        }
        for (Path f : own) {
            if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                Set<PosixFilePermission> mode = Files.getPosixFilePermissions(f, LinkOption.NOFOLLOW_LINKS);
                if (!FILE.containsAll(mode)) {
                    ownerOnly(f);
                    changed.add(f.getFileName() + " (was " + PosixFilePermissions.toString(mode) + ")");
                }
            }
        }
        if (!changed.isEmpty()) {
            AgentLog.warn("effectful made the journal owner-only, as journal files hold arguments and results: "
                    + String.join(", ", changed));
        }
    }

    /**
     * What makes a directory a journal: a file Effectful writes there. Chronicle's metadata.cq4t and
     * cycle files (*.cq4, and one being salvaged), the writer lock, the redaction secret, the index
     * snapshot and the index's table file, the key format mark, the tools' result shapes, and the health probe a crash may leave behind.
     */
    public static boolean isJournalFile(String name) {
        return name.endsWith(".cq4") || name.endsWith(".cq4t") || name.contains(".cq4.salvaging")
                || name.equals(JournalLock.FILE_NAME) || name.startsWith("secret.key")
                || name.startsWith("index.snapshot") || name.startsWith("index.table")
                || name.equals(".effectful-write-probe") || name.startsWith(KEY_FORMAT_FILE)
                || name.startsWith(ResultShapes.FILE_NAME);
    }

    private static String describe(List<Path> foreign) {
        String first = foreign.stream().limit(3).map(p -> "'" + p.getFileName() + "'")
                .reduce((a, b) -> a + ", " + b).orElse("");
        return foreign.size() > 3 ? first + " and " + (foreign.size() - 3) + " more" : first;
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

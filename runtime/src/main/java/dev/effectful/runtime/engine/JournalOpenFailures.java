package dev.effectful.runtime.engine;

import dev.effectful.core.journal.JournalDirectoryException;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalProblem;
import dev.effectful.core.journal.JournalUnavailableException;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Locale;

/** Names the cause of a journal that would not open, so its refusals say whether a retry can help. */
final class JournalOpenFailures {

    private JournalOpenFailures() {
    }

    static JournalProblem classify(Path dir, Exception e) {
        if (e instanceof JournalDirectoryException d) {
            return d.problem();
        }
        if (e instanceof JournalLock.JournalLockedException held) {
            return new JournalProblem(JournalProblem.Cause.LOCK_HELD, held.getMessage());
        }
        String reason = "cannot open journal directory " + dir + ": " + e.getMessage();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JournalUnavailableException u && u.problem().cause() != JournalProblem.Cause.OTHER) {
                return new JournalProblem(u.problem().cause(), reason);
            }
            String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (t instanceof AccessDeniedException || m.contains("permission denied") || m.contains("operation not permitted")) {
                return new JournalProblem(JournalProblem.Cause.PERMISSION_DENIED, reason
                        + " (permission denied; give the process's user access or set effectful.journal.dir)");
            }
            if (m.contains("not a directory")) {
                return new JournalProblem(JournalProblem.Cause.NOT_A_DIRECTORY, reason);
            }
            if (m.contains("no space left")) {
                return new JournalProblem(JournalProblem.Cause.DISK_FULL, reason);
            }
            if (m.contains("read-only file system")) {
                return new JournalProblem(JournalProblem.Cause.READ_ONLY, reason);
            }
            if (t instanceof FileSystemException && t.getCause() == null) {
                break;
            }
        }
        return new JournalProblem(JournalProblem.Cause.OTHER, reason);
    }
}

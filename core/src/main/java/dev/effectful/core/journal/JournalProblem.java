package dev.effectful.core.journal;

import java.util.Objects;

/**
 * Why effectful calls cannot be journaled now, typed by what a retry can do about it (the engine's
 * {@code JournalRefusal} turns it into a caller's outcome): a cause a retry cannot fix (a
 * misconfiguration, a path that is a file, a directory that is not a journal, a permission) is
 * permanent; a passing one (a lock held by a live process, a full disk, a store that is down) is
 * retryable, with a retry-after when a time is known.
 *
 * @param cause   what kind of problem
 * @param message what happened and the fix, for a person and for the model
 */
public record JournalProblem(Cause cause, String message) {

    /** How long a caller waits before asking again while another process holds the journal lock. */
    public static final long LOCK_RETRY_AFTER_S = 1;

    /** The kinds of problem; each says whether a retry can clear it. */
    public enum Cause {
        /** The configuration is invalid: nothing is guarded until it is fixed and the JVM restarted. */
        MISCONFIGURED,
        /** The journal path, or a directory above it, is a file. */
        NOT_A_DIRECTORY,
        /** An existing non-empty directory that holds no journal: never written into or chmod-ed. */
        NOT_A_JOURNAL,
        /** The operating system refuses access to the journal directory. */
        PERMISSION_DENIED,
        /** The journal cannot be read past damage; an operator moves the damaged file aside. */
        DAMAGED,
        /** Another live process writes this journal; it is taken over once released. */
        LOCK_HELD,
        /** The journal's disk is below its reserve. */
        DISK_FULL,
        /** The journal's directory or file system does not take writes now. */
        READ_ONLY,
        /** The shared intent store cannot be reached. */
        STORE_DOWN,
        /** Anything else: treated as passing, as before the causes were typed. */
        OTHER;

        /** True when a retry of the same call cannot succeed until someone changes something. */
        public boolean permanent() {
            return switch (this) {
                case MISCONFIGURED, NOT_A_DIRECTORY, NOT_A_JOURNAL, PERMISSION_DENIED, DAMAGED -> true;
                case LOCK_HELD, DISK_FULL, READ_ONLY, STORE_DOWN, OTHER -> false;
            };
        }

        /** Seconds before a retry is worth it, when known; else null. */
        public Long retryAfterS() {
            return this == LOCK_HELD ? LOCK_RETRY_AFTER_S : null;
        }
    }

    /** Requires both parts. */
    public JournalProblem {
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(message, "message");
    }


    /** Seconds before a retry is worth it, when known; else null. */
    public Long retryAfterS() {
        return cause.retryAfterS();
    }

}

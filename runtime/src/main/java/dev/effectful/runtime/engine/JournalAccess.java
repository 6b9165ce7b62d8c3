package dev.effectful.runtime.engine;

import dev.effectful.runtime.journal.Journal;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.JournalUnavailableException;

import java.util.Optional;

/**
 * The journal as the engine sees it: possibly unavailable (a directory that cannot be created, a
 * second writer, a full disk). When it is, every append fails with the reason, so effectful calls
 * are refused with a message naming the cause, and READ calls go on.
 */
public final class JournalAccess {

    private final Journal journal;
    private final String unavailableReason;

    private JournalAccess(Journal journal, String unavailableReason) {
        this.journal = journal;
        this.unavailableReason = unavailableReason;
    }

    public static JournalAccess of(Journal journal) {
        return new JournalAccess(journal, null);
    }

    public static JournalAccess unavailable(String reason) {
        return new JournalAccess(null, reason);
    }

    long append(JournalRecord r) {
        if (journal == null) {
            throw new JournalUnavailableException("journal unavailable: " + unavailableReason);
        }
        return journal.append(r);
    }

    Optional<JournalRecord> read(long index) {
        return journal == null ? Optional.empty() : journal.read(index);
    }

    Journal journal() {
        return journal;
    }

    public boolean available() {
        return journal != null;
    }
}

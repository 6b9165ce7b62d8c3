package dev.effectful.runtime.engine;

import dev.effectful.core.journal.Journal;
import dev.effectful.core.journal.JournalHealth;
import dev.effectful.core.journal.JournalProblem;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.JournalUnavailableException;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.IntentStore;

import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The journal as the engine sees it: possibly unavailable (a directory that cannot be created, a
 * second writer, a full disk). When it is, every append fails with the reason, so effectful calls
 * are refused with a message naming the cause, and READ calls go on.
 *
 * <p>A journal that opened can still lose its disk: before each intent the {@link JournalHealth}
 * is asked (full disk, read-only directory). The answer is re-checked at most every
 * {@link #HEALTH_REFRESH_MILLIS}, so calls are refused while the fault lasts and go through again
 * once it clears, without a restart. A journal that could not be opened at all stays unavailable
 * until the process restarts: the redaction secret lives in the journal directory, and fingerprints
 * made under a stand-in secret would not match the journal's later.
 */
public final class JournalAccess {

    /**
     * How stale the read-only check may be, and how often the free space is read again for what other
     * processes wrote; this process's own records are counted against it by size (see JournalHealth).
     */
    public static final long HEALTH_REFRESH_MILLIS = 500;

    private final Journal journal;
    private final JournalProblem unavailable;
    private final JournalHealth health;
    private volatile String lastProblem;
    private final RecentResults recent = new RecentResults();
    /**
     * Appending a record and folding it into the index is one step for checkpoints: they take the
     * write side only to read the journal's last index while no record is between the two.
     */
    private final ReentrantReadWriteLock folding = new ReentrantReadWriteLock();
    private final LongAdder folded = new LongAdder();
    private volatile DamageHold damageHold;

    private JournalAccess(Journal journal, JournalProblem unavailable, JournalHealth health) {
        this.journal = journal;
        this.unavailable = unavailable;
        this.health = health;
    }

    public static JournalAccess of(Journal journal) {
        return new JournalAccess(journal, null, null);
    }

    /** A journal whose disk is checked before each intent. */
    public static JournalAccess of(Journal journal, JournalHealth health) {
        return new JournalAccess(journal, null, health);
    }

    public static JournalAccess unavailable(String reason) {
        return unavailable(new JournalProblem(JournalProblem.Cause.OTHER, reason));
    }

    /** A journal that could not be opened, for the typed reason (which decides the refusals' status). */
    public static JournalAccess unavailable(JournalProblem problem) {
        return new JournalAccess(null, problem, null);
    }

    long append(JournalRecord r) {
        if (journal == null) {
            throw new JournalUnavailableException(new JournalProblem(unavailable.cause(),
                    "journal unavailable: " + unavailable.message()));
        }
        if (health != null && r.type() != RecordType.INTENT) {
            // outcomes of calls already running must still be written: counted, never refused
            health.consumed(JournalHealth.bytesOf(r));
        } else if (health != null) {
            // only new intents are gated, each by its own size: a burst of large ones never outruns the check
            String problem = health.problem(JournalHealth.bytesOf(r)).orElse(null);
            if (problem != null) {
                if (!problem.equals(lastProblem)) {
                    AgentLog.error("effectful journal unavailable: " + problem + "; effectful tool calls are refused"
                            + " (retryable, effect no) until it clears, READ tools go on", null);
                }
                lastProblem = problem;
                throw new JournalUnavailableException(new JournalProblem(problem.startsWith("disk full")
                        ? JournalProblem.Cause.DISK_FULL : JournalProblem.Cause.READ_ONLY, "journal unavailable: " + problem));
            }
            if (lastProblem != null) {
                AgentLog.info("effectful journal available again: " + journal.directory());
                lastProblem = null;
            }
        }
        long index = journal.append(r);
        recent.remember(index, r);
        return index;
    }

    /** Appends {@code r} and folds it into {@code store}, as one step for {@link IndexCheckpoints}. */
    long appendAndApply(JournalRecord r, IntentStore store) {
        folding.readLock().lock();
        try {
            long index = append(r);
            store.apply(index, r);
            folded.increment();
            return index;
        } finally {
            folding.readLock().unlock();
        }
    }

    /**
     * How many records were appended and folded into the index since start: a status read that kept its
     * answer knows from a change of this count that a call has written since.
     */
    public long foldedCount() {
        return folded.sum();
    }

    /**
     * The journal's last index at a moment when every record up to it is folded into the index
     * (only records that are never folded, like dedup markers, may be in flight).
     */
    long settledLastIndex(java.util.function.LongSupplier lastIndex) {
        folding.writeLock().lock();
        try {
            return lastIndex.getAsLong();
        } finally {
            folding.writeLock().unlock();
        }
    }

    Optional<JournalRecord> read(long index) {
        JournalRecord remembered = recent.find(index);
        if (remembered != null) {
            return Optional.of(remembered);
        }
        return journal == null ? Optional.empty() : journal.read(index);
    }

    /** Effectful calls are held while the journal has damaged records nobody acknowledged. */
    void holdOnDamage(DamageHold hold) {
        this.damageHold = hold;
    }

    /** Why an effectful call of {@code task} must be held for a damaged journal record; empty when it may go on. */
    Optional<String> damageHold(String task, String intentKey) {
        DamageHold h = damageHold;
        return h == null ? Optional.empty() : h.holdFor(task, intentKey);
    }

    /** True while a damaged record holds calls: no index snapshot may cover it then. */
    boolean damageUnacknowledged() {
        DamageHold h = damageHold;
        return h != null && h.unacknowledged();
    }

    Journal journal() {
        return journal;
    }

    /**
     * Why a new intent would be refused now (the journal could not be opened, its directory is read-only,
     * the disk is down to its reserve), or empty: for a health check, read without writing anything.
     */
    public Optional<String> problem() {
        if (journal == null) {
            return Optional.of("journal unavailable: " + unavailable.message());
        }
        return health == null ? Optional.empty() : health.currentProblem();
    }

    /** Bytes the journal's disk can take before new intents are refused; -1 when not known. */
    public long bytesBeforeRefusal() {
        return health == null ? -1 : health.bytesBeforeRefusal();
    }

    public boolean available() {
        return journal != null;
    }
}

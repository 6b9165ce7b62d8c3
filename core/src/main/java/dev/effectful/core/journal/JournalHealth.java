package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Is the journal's disk still able to keep a new intent of a given size? Asked before each intent is
 * written, with the size of that record.
 *
 * <p>Why not just let the append fail: Chronicle writes through a memory map. On a full disk the
 * store under the map cannot give a page and the JVM gets SIGBUS (an {@code InternalError} in the
 * middle of a record, or a crash of the whole JVM when the fault lands in a bulk copy); on a file
 * system that turned read-only the map accepts writes that will never reach the disk. Neither says
 * "no" at the moment it should, so the engine must ask first. Two checks:
 * <ul>
 *   <li>the record would leave less than the reserve free: "disk full", so in-flight calls still have
 *       room for their outcome records. The free space is read (statvfs) and turned into an
 *       allowance; every record written, asked or not (outcomes are never refused), is taken from it
 *       at its size plus {@link #RECORD_SLACK}, and once a record does not fit in what is left the free
 *       space is read again before it is allowed. A burst of large records therefore never runs on a
 *       stale figure: the records this process writes between two reads can never add up to more
 *       than the space above the reserve at the first. The allowance is also renewed every
 *       {@code refreshMillis}, for what other processes write;</li>
 *   <li>a probe file cannot be created in the directory: "read-only" (or not writable), checked every
 *       {@code refreshMillis}.</li>
 * </ul>
 * ChronicleJournal also gives each record's pages real blocks with a plain write before it copies the
 * record in, so a disk that fills behind this check's back fails that write, not the mapped copy.
 */
public final class JournalHealth {

    /**
     * Room taken per record beyond its fields' bytes: Chronicle's header and field names, padding, the
     * index array it may add after a record (32 KiB on a daily cycle), and page rounding.
     */
    static final long RECORD_SLACK = 64L << 10;
    /** Bytes of a record's fixed fields and names, beyond its variable text. */
    private static final long FIXED_FIELDS = 512;

    private final Path dir;
    private final long reserveBytes;
    private final long refreshNanos;
    private final LongSupplier clock;
    private final LongSupplier usableSpace;
    private volatile long checkedAt;
    private volatile Optional<String> writeProblem = Optional.empty();
    private volatile boolean checkedOnce;
    /** Bytes that may still be written before the free space is read again; negative: read it first. */
    private final AtomicLong allowance = new AtomicLong(-1);
    private volatile FileStore store;

    public JournalHealth(Path dir, long reserveBytes, long refreshMillis) {
        this(dir, reserveBytes, refreshMillis, System::nanoTime, null);
    }

    JournalHealth(Path dir, long reserveBytes, long refreshMillis, LongSupplier clock) {
        this(dir, reserveBytes, refreshMillis, clock, null);
    }

    /** @param usableSpace the free space for tests; null: the journal's file system's */
    JournalHealth(Path dir, long reserveBytes, long refreshMillis, LongSupplier clock, LongSupplier usableSpace) {
        this.dir = dir;
        this.reserveBytes = reserveBytes;
        this.refreshNanos = refreshMillis * 1_000_000L;
        this.clock = clock;
        this.usableSpace = usableSpace;
    }

    /** Why a new intent must not be written now, or empty when the disk can take a small one. */
    public Optional<String> problem() {
        return problem(0);
    }

    /** Why a new intent of {@code recordBytes} (see {@link #bytesOf}) must not be written now, or empty. */
    public Optional<String> problem(long recordBytes) {
        Optional<String> w = problemFromProbe();
        if (w.isPresent()) {
            return w;
        }
        long need = recordBytes + RECORD_SLACK;
        if (allowance.addAndGet(-need) >= 0) {
            return Optional.empty(); // the hot path: an atomic add
        }
        synchronized (this) {
            // what was allowed is used up (or was never read): read the free space itself, never a cached figure
            long free;
            try {
                free = usableSpace != null ? usableSpace.getAsLong() : fileStore().getUsableSpace();
            } catch (IOException e) {
                allowance.set(-1);
                return Optional.of("cannot read the free space of " + dir + ": " + e.getMessage());
            }
            long left = free - reserveBytes - need;
            if (left >= 0) {
                allowance.set(left);
                return Optional.empty();
            }
            allowance.set(-1);
            return Optional.of("disk full (" + free + " bytes free in " + dir + "; a record of " + recordBytes
                    + " bytes would leave less than the " + reserveBytes + " effectful keeps in reserve; set"
                    + " effectful.journal.reserve to change it)");
        }
    }

    /**
     * What a health check reads: why a new intent would be refused now, or empty. Unlike {@link #problem(long)}
     * it takes nothing from the allowance; it reads the free space itself (statvfs), so it is for an
     * occasional reader, not for each call.
     */
    public Optional<String> currentProblem() {
        Optional<String> w = problemFromProbe();
        if (w.isPresent()) {
            return w;
        }
        long left = bytesBeforeRefusal();
        if (left == 0) {
            return Optional.of("disk full (" + dir + " has no more than the " + reserveBytes + " bytes effectful keeps"
                    + " in reserve; set effectful.journal.reserve to change it)");
        }
        return Optional.empty();
    }

    /** Bytes the disk can still take before the reserve is reached (0 when it is); -1 when the free space cannot be read. */
    public long bytesBeforeRefusal() {
        try {
            long free = usableSpace != null ? usableSpace.getAsLong() : fileStore().getUsableSpace();
            return Math.max(0, free - reserveBytes - RECORD_SLACK);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The reserve this check keeps, in bytes ({@code effectful.journal.reserve}). */
    public long reserveBytes() {
        return reserveBytes;
    }

    /** The directory's writability, probed again when the last probe is older than the refresh interval. */
    private Optional<String> problemFromProbe() {
        long now = clock.getAsLong();
        if (!checkedOnce || now - checkedAt >= refreshNanos) {
            synchronized (this) {
                if (!checkedOnce || now - checkedAt >= refreshNanos) {
                    writeProblem = probeWritable();
                    allowance.set(-1); // the free space is read again at the next intent, for what others wrote meanwhile
                    checkedAt = clock.getAsLong();
                    checkedOnce = true;
                }
            }
        }
        return writeProblem;
    }

    /** A record written without asking (the outcome of a call already running): taken from the allowance. */
    public void consumed(long recordBytes) {
        allowance.addAndGet(-(recordBytes + RECORD_SLACK));
    }

    /**
     * An upper bound on the bytes {@code r} takes in the journal: its text fields in UTF-8 (Chronicle's
     * binary wire stores them so), plus its fixed fields.
     */
    public static long bytesOf(JournalRecord r) {
        return FIXED_FIELDS + utf8(r.task()) + utf8(r.actor()) + utf8(r.call()) + utf8(r.intentKey())
                + utf8(r.attemptId()) + utf8(r.args()) + utf8(r.message()) + utf8(r.result()) + utf8(r.thread())
                + utf8(r.item()) + utf8(r.reentry());
    }

    private static long utf8(String s) {
        if (s == null) {
            return 0;
        }
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3; // a surrogate pair counts 3 + 3, more than its 4: an upper bound
        }
        return n;
    }

    private FileStore fileStore() throws IOException {
        FileStore s = store;
        if (s == null) {
            // found once: looking a path's file store up reads the mount table, reading its free space is statvfs
            s = Files.getFileStore(dir);
            store = s;
        }
        return s;
    }

    private Optional<String> probeWritable() {
        Path probe = dir.resolve(".effectful-write-probe");
        try {
            Files.deleteIfExists(probe);
            Files.createFile(probe);
            Files.delete(probe);
            return Optional.empty();
        } catch (IOException e) {
            String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(java.util.Locale.ROOT);
            if (m.contains("no space left")) {
                return Optional.empty(); // a full disk is the free-space check's to name, with the reserve
            }
            String why = m.contains("read-only") ? "read-only file system" : e.getClass().getSimpleName() + ": " + e.getMessage();
            return Optional.of("directory read-only: " + dir + " (" + why + ")");
        }
    }
}

package dev.effectful.cli;

import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalFollower;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalOwners;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.core.journal.RootCause;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * How a person's verdict ({@code resolve}, {@code approve}, {@code deny}) reaches the journal: handed to the
 * live writer as a {@link ResolutionRequest} and waited for (bounded) until its record appears, or, with no
 * writer, appended by the CLI itself holding the writer lock. The commands differ only in the record they
 * write and the words they report it with; the delivery is this class.
 */
final class VerdictDelivery {

    private static final long POLL_MILLIS = 50;

    private final JournalCli cli;
    private final Path dir;
    private final String key;
    private final long waitSeconds;

    /** Hands the verdict to the live writer: its answer, or null when the writer went away before taking it. */
    @FunctionalInterface
    interface HandOver {
        Integer run() throws CliException;
    }

    /** Appends the verdict as the journal's one writer for a moment, and reports it. */
    @FunctionalInterface
    interface Append {
        int run(ChronicleJournal writer) throws CliException;
    }

    VerdictDelivery(JournalCli cli, Path dir, String key, long waitSeconds) {
        this.cli = cli;
        this.dir = dir;
        this.key = key;
        this.waitSeconds = waitSeconds;
    }

    /** The full key a prefix names, said on stderr when it was a prefix. */
    static String expandKey(JournalCli cli, String given) throws CliException {
        String key = KeyPrefixes.expand(cli, given, false);
        if (!key.equals(given)) {
            cli.err.println("effectful journal: " + Table.clean(given) + " is intent " + key);
        }
        return key;
    }

    /** Refuses to write a journal another user's agent owns. */
    static void refuseForeignWriter(JournalCli cli, Path dir) throws CliException {
        Optional<String> foreign = JournalOwners.cliWriteProblem(dir, cli.env);
        if (foreign.isPresent()) {
            throw new CliException(JournalCli.REFUSED, "refused: " + foreign.get());
        }
    }

    /**
     * Takes the verdict to the journal: handed to the live writer when one holds the lock, else appended by this
     * CLI; when a writer starts while the CLI opens the journal, handed to that one after all.
     *
     * @param rerun the end of the refusal when the writer started and stopped meanwhile, after {@code "while "}
     */
    int deliver(HandOver handOver, Append append, String rerun) throws CliException {
        if (JournalLock.isHeld(dir)) {
            Integer done = handOver.run();
            if (done != null) {
                return done;
            }
        }
        ChronicleJournal writer = openWriter();
        if (writer == null) {
            // an agent started a moment ago: hand the verdict to it instead
            Integer done = handOver.run();
            if (done != null) {
                return done;
            }
            throw new CliException(JournalCli.REFUSED, "refused: the writer of " + dir + " started and stopped"
                    + " while " + rerun);
        }
        try (writer) {
            return append.run(writer);
        }
    }

    /**
     * The journal opened for writing with its own roll cycle (a writer must continue it, not the default one);
     * null when a writer took the lock a moment ago, so the verdict goes to it instead.
     */
    ChronicleJournal openWriter() throws CliException {
        try (JournalReader probe = cli.openReader()) {
            return probe.openWriter();
        } catch (JournalLock.JournalLockedException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            throw new CliException(JournalCli.USAGE, "cannot open journal " + dir + " for writing: " + RootCause.firstLine(e));
        }
    }

    /** Appends the verdict's record and forces it to disk: a person's verdict must survive a power cut too. */
    static void appendDurably(ChronicleJournal writer, JournalRecord r, String what) throws CliException {
        try {
            writer.append(r);
            writer.sync();
        } catch (RuntimeException e) {
            throw new CliException(JournalCli.LOOK, "could not write the " + what + ": " + RootCause.firstLine(e));
        }
    }

    /**
     * A live writer ({@code holder}) holds the journal: hands it {@code request} and waits (bounded) for the record
     * {@code recorded} accepts. Null when the writer went away before taking the request (withdrawn; the caller
     * writes it itself).
     *
     * @param recordName     the record's name in the messages ({@code resolution}, {@code approval})
     * @param notTakenAdvice what the person is told to do when the writer did not take it in time
     */
    JournalRecord handOver(ResolutionRequest request, String holder, Predicate<JournalRecord> recorded, String recordName,
                           String notTakenAdvice) throws CliException {
        Path refusal = ResolutionRequest.refusalFile(dir, key);
        try (JournalReader reader = cli.openReader()) {
            // positioned at the end before the request exists, so the writer's record cannot slip by unseen
            JournalFollower tailer = reader.followFromEnd();
            try {
                Files.deleteIfExists(refusal);
                request.submit(dir);
            } catch (IOException e) {
                throw new CliException(JournalCli.LOOK, "could not hand the verdict to the writer (pid " + holder
                        + "): " + e.getMessage());
            }
            long waitNanos = TimeUnit.SECONDS.toNanos(Math.max(1, waitSeconds));
            long deadline = System.nanoTime() + waitNanos;
            boolean taken = false;
            for (int round = 1; ; round++) {
                for (JournalRecord r = tailer.next(); r != null; r = tailer.next()) {
                    if (recorded.test(r)) {
                        return r;
                    }
                }
                if (Files.exists(refusal)) {
                    String why = readAndDelete(refusal);
                    throw new CliException(JournalCli.REFUSED, "refused by the writer (pid " + holder + "): " + why);
                }
                if (System.nanoTime() > deadline) {
                    if (!taken && withdraw()) {
                        throw new CliException(JournalCli.REFUSED, "not recorded: the writer (pid " + holder
                                + ") did not take the verdict within " + waitSeconds + " s" + notTakenAdvice);
                    }
                    if (taken) {
                        throw new CliException(JournalCli.LOOK, "the writer (pid " + holder + ") took the verdict"
                                + " but its " + recordName + " record did not appear within " + waitSeconds + " s more;"
                                + " look with: journal show " + key);
                    }
                    taken = true; // it is the writer's now: give it the same time again to append
                    deadline = System.nanoTime() + waitNanos;
                }
                // about once a second: probing the lock takes it for an instant, which a starting agent would meet
                if (!taken && round % 20 == 0 && !JournalLock.isHeld(dir) && withdraw()) {
                    return null; // the writer stopped before taking it: nobody else will
                }
                pause(POLL_MILLIS, "waiting for the writer");
            }
        }
    }

    private boolean withdraw() throws CliException {
        try {
            return ResolutionRequest.withdraw(dir, key);
        } catch (IOException e) {
            throw new CliException(JournalCli.LOOK, "could not withdraw the request " + ResolutionRequest.file(dir, key)
                    + ": " + e.getMessage() + "; delete it by hand");
        }
    }

    private static String readAndDelete(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.UTF_8).strip();
            Files.deleteIfExists(file);
            return s.isEmpty() ? "(no reason given)" : s;
        } catch (IOException e) {
            return "(its reason could not be read: " + e.getMessage() + ")";
        }
    }

    /** Sleeps between two looks at what another process does; interrupted, the CLI stops and says during what. */
    static void pause(long millis, String during) throws CliException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(JournalCli.LOOK, "interrupted while " + during);
        }
    }
}

package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleServer;
import dev.effectful.core.journal.RootCause;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalFollower;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalOwners;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.core.journal.Verdict;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.core.store.StoreView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code journal approve KEY --note TEXT} and {@code journal deny KEY --note TEXT}: a person's verdict on an
 * intent waiting for approval, journaled as an {@code approval} record with {@code by} (the OS user, and
 * {@code --by NAME} if given) and {@code note}. By the same path as {@code resolve}: a live writer is handed
 * the verdict ({@link ResolutionRequest}) and appends the record itself; with no writer the CLI takes the
 * writer lock and appends it; {@code --store postgres} sets it on the fleet's shared row, which every host
 * decides from.
 */
abstract class ApprovalVerdict implements Callable<Integer> {

    private static final long POLL_MILLIS = 50;

    @ParentCommand
    JournalCli cli;

    @Parameters(paramLabel = "KEY", description = "the intent key, or its first 6 or more hex digits when they name one"
            + " key (see: journal approvals)")
    String key;

    @Option(names = "--note", required = true, paramLabel = "TEXT", description = "why you decided so (journaled; a"
            + " denied call's message carries it)")
    String note;

    @Option(names = "--by", paramLabel = "NAME", description = "your name, journaled beside your OS user")
    String byName;

    @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "10",
            description = "on a live journal: how long to wait for the writer to record it (default: ${DEFAULT-VALUE})")
    long waitSeconds;

    /** {@link Verdict#APPROVED} or {@link Verdict#DENIED}: the verdicts a person gives. */
    abstract Verdict verdict();

    /** Who gives the verdict: the OS user, and the name the person typed if any. */
    String by() {
        String user = System.getProperty("user.name", "unknown");
        return byName == null || byName.isBlank() ? user : Table.clean(byName.strip()) + " (" + user + ")";
    }

    @Override
    public Integer call() throws CliException {
        if (cli.sharedStore()) {
            return shared();
        }
        String given = key;
        key = KeyPrefixes.expand(cli, key, false);
        if (!key.equals(given)) {
            cli.err.println("effectful journal: " + Table.clean(given) + " is intent " + key);
        }
        Path dir = cli.journalDir();
        java.util.Optional<String> foreign = JournalOwners.cliWriteProblem(dir, cli.env);
        if (foreign.isPresent()) {
            throw new CliException(JournalCli.REFUSED, "refused: " + foreign.get());
        }
        // checked and recorded alone: a verdict given at the same moment waits, then finds this one standing
        return VerdictTurn.alone(dir, key, waitSeconds, () -> {
            JournalRecord request = find(dir);
            if (JournalLock.isHeld(dir)) {
                Integer done = handOver(dir, request);
                if (done != null) {
                    return done;
                }
            }
            return writeItself(dir, request);
        });
    }

    /** The intent's {@code approval_requested} record, checked: it waits for a verdict. */
    private JournalRecord find(Path dir) throws CliException {
        JournalIntents table = new JournalIntents();
        JournalRecord[] request = new JournalRecord[2]; // [0] the request, [1] the verdict on it, if any
        JournalReader.Report report;
        try (JournalReader reader = cli.openReader()) {
            report = reader.scan((index, r) -> {
                if (key.equals(r.intentKey())) {
                    table.accept(index, r);
                    if (r.type() == RecordType.APPROVAL_REQUESTED) {
                        request[0] = r;
                    } else if (r.type() == RecordType.APPROVAL) {
                        request[1] = r;
                    }
                }
            });
        }
        cli.warn(report);
        int row = table.find(key);
        if (row < 0) {
            throw new CliException(JournalCli.USAGE, "no intent with key '" + Table.clean(key) + "' in " + dir
                    + " (see: journal approvals)");
        }
        JournalIntents.Intent intent = table.intent(row);
        String nothingTo = "nothing to " + ConsoleServer.action(verdict());
        if (intent.state() != JournalIntents.State.AWAITING_APPROVAL && request[1] != null) {
            throw new CliException(JournalCli.REFUSED, "intent " + key + " is already decided: " + standing(request[1])
                    + "; " + nothingTo);
        }
        if (intent.state() != JournalIntents.State.AWAITING_APPROVAL || request[0] == null) {
            throw new CliException(JournalCli.REFUSED, "intent " + key + " does not wait for an approval (it is "
                    + intent.state().word + "); " + nothingTo);
        }
        return request[0];
    }

    /** The verdict that stands, in the words a person gave it: {@code approved by Ann (ops) (note: ...)}. */
    static String standing(JournalRecord approval) {
        return approval.verdict() + (approval.by() == null ? "" : " by " + Table.clean(approval.by()))
                + (approval.note() == null ? "" : " (note: " + Table.clean(approval.note()) + ")");
    }

    private JournalRecord.Builder record(JournalRecord request) {
        return JournalRecord.of(RecordType.APPROVAL).task(request.task()).actor(request.actor()).call(request.call())
                .kind(request.kind()).intentKey(key).started(cli.now())
                .effectApplied(verdict().effectApplied())
                .verdict(verdict().word()).by(by()).note(note);
    }

    /** No live writer: take the lock and append, as the journal's one writer for a moment. */
    private Integer writeItself(Path dir, JournalRecord request) throws CliException {
        ChronicleJournal writer;
        try (JournalReader probe = cli.openReader()) {
            writer = probe.openWriter();
        } catch (JournalLock.JournalLockedException e) {
            Integer done = handOver(dir, request);
            if (done != null) {
                return done;
            }
            throw new CliException(JournalCli.REFUSED, "refused: the writer of " + dir + " started and stopped"
                    + " while this ran; run it again");
        } catch (IOException | RuntimeException e) {
            throw new CliException(JournalCli.USAGE, "cannot open journal " + dir + " for writing: "
                    + RootCause.firstLine(e));
        }
        try (writer) {
            JournalRecord r = record(request).thread("journal-cli").build();
            try {
                writer.append(r);
                writer.sync(); // a person's verdict must survive a power cut too
            } catch (RuntimeException e) {
                throw new CliException(JournalCli.LOOK, "could not write the verdict: " + RootCause.firstLine(e));
            }
            report(r, null);
            return JournalCli.OK;
        }
    }

    /**
     * A live writer holds the journal: hand it the verdict and wait (bounded) for its record, as {@code resolve}
     * does. Null when the writer went away before taking it (withdrawn; the caller writes it itself).
     */
    private Integer handOver(Path dir, JournalRecord request) throws CliException {
        ResolutionRequest req = new ResolutionRequest(key, false, note, null, false, request.task(), request.actor(),
                request.call(), request.kind(), 0, null, cli.now(), ProcessHandle.current().pid(), verdict().word(), by());
        String holder = JournalLock.holderOf(dir);
        Path refusal = ResolutionRequest.refusalFile(dir, key);
        try (JournalReader reader = cli.openReader()) {
            JournalFollower tailer = reader.followFromEnd();
            try {
                Files.deleteIfExists(refusal);
                req.submit(dir);
            } catch (IOException e) {
                throw new CliException(JournalCli.LOOK, "could not hand the verdict to the writer (pid " + holder
                        + "): " + e.getMessage());
            }
            long waitNanos = TimeUnit.SECONDS.toNanos(Math.max(1, waitSeconds));
            long deadline = System.nanoTime() + waitNanos;
            boolean taken = false;
            for (int round = 1; ; round++) {
                for (JournalRecord r = tailer.next(); r != null; r = tailer.next()) {
                    if (r.type() == RecordType.APPROVAL && key.equals(r.intentKey())) {
                        if (verdict().word().equals(r.verdict()) && by().equals(r.by())) {
                            report(r, holder);
                            return JournalCli.OK;
                        }
                        // another verdict (an expiry, an answer by elicitation) got there first: the writer
                        // refuses this one, and that refusal is what this CLI reports
                    }
                }
                if (Files.exists(refusal)) {
                    throw new CliException(JournalCli.REFUSED, "refused by the writer (pid " + holder + "): "
                            + readAndDelete(refusal));
                }
                if (System.nanoTime() > deadline) {
                    if (!taken && withdraw(dir)) {
                        throw new CliException(JournalCli.REFUSED, "not recorded: the writer (pid " + holder
                                + ") did not take the verdict within " + waitSeconds + " s; the request was withdrawn"
                                + " and nothing changed; run it again");
                    }
                    if (taken) {
                        throw new CliException(JournalCli.LOOK, "the writer (pid " + holder + ") took the verdict"
                                + " but its approval record did not appear within " + waitSeconds + " s more; look"
                                + " with: journal show " + key);
                    }
                    taken = true;
                    deadline = System.nanoTime() + waitNanos;
                }
                if (!taken && round % 20 == 0 && !JournalLock.isHeld(dir) && withdraw(dir)) {
                    return null;
                }
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CliException(JournalCli.LOOK, "interrupted while waiting for the writer");
                }
            }
        }
    }

    private boolean withdraw(Path dir) throws CliException {
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

    private void report(JournalRecord r, String writerPid) {
        if (cli.json) {
            cli.out.println(Json.record(r, cli.zone));
            return;
        }
        cli.out.println(verdict().word() + " " + key + " (task " + Table.clean(r.task()) + ", " + Table.clean(r.call())
                + ") by " + r.by() + (writerPid == null ? "" : "; recorded by the running writer (pid " + writerPid + ")"));
        cli.out.println(verdict().letsBodyRun() ? "the next call of this intent runs its body once"
                : "every call of this intent is refused for good, with your note");
    }

    private int shared() throws CliException {
        try (StoreView view = SharedStoreView.open(cli.store)) {
            return switch (view.approve(key, verdict(), by(), note)) {
                case RESOLVED -> {
                    cli.out.println(verdict().word() + " " + key + " in the shared store by " + by() + "; every host acts on it"
                            + " at its next call of the intent");
                    yield JournalCli.OK;
                }
                case NO_SUCH_INTENT -> throw new CliException(JournalCli.USAGE, "no intent " + key + " in the shared store");
                case NOT_AWAITING_APPROVAL, STILL_RUNNING -> throw new CliException(JournalCli.REFUSED, "intent " + key
                        + " does not wait for an approval in the shared store" + SharedStoreView.standing(view, key)
                        + "; nothing to decide");
            };
        } catch (StoreUnavailableException e) {
            throw new CliException(JournalCli.USAGE, "shared store unavailable: " + e.getMessage());
        }
    }

    /** {@code journal approve KEY --note TEXT}. */
    @Command(name = "approve", mixinStandardHelpOptions = true,
            description = {"Approve an intent waiting for a person's approval: the next call of it runs its body once"
                    + " (and repeats after it get the stored result). Journaled with your OS user (and --by NAME) and"
                    + " the note. Works while an agent writes the journal, and with --store postgres for a fleet."})
    static final class Approve extends ApprovalVerdict {
        @Override
        Verdict verdict() {
            return Verdict.APPROVED;
        }
    }

    /** {@code journal deny KEY --note TEXT}. */
    @Command(name = "deny", mixinStandardHelpOptions = true,
            description = {"Deny an intent waiting for a person's approval: every call of it is refused, permanent,"
                    + " effect no, with your note. Journaled with your OS user (and --by NAME). Works while an agent"
                    + " writes the journal, and with --store postgres for a fleet."})
    static final class Deny extends ApprovalVerdict {
        @Override
        Verdict verdict() {
            return Verdict.DENIED;
        }
    }
}

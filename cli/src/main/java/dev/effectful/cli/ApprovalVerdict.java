package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleServer;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.core.journal.Verdict;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.core.store.StoreView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/**
 * {@code journal approve KEY --note TEXT} and {@code journal deny KEY --note TEXT}: a person's verdict on an
 * intent waiting for approval, journaled as an {@code approval} record with {@code by} (the OS user, and
 * {@code --by NAME} if given) and {@code note}. By the same path as {@code resolve}: a live writer is handed
 * the verdict ({@link ResolutionRequest}) and appends the record itself; with no writer the CLI takes the
 * writer lock and appends it; {@code --store postgres} sets it on the fleet's shared row, which every host
 * decides from.
 */
abstract class ApprovalVerdict extends JournalSubcommand {

    @Parameters(paramLabel = "KEY", description = "the intent key, or its first 6 or more hex digits when they name one"
            + " key (see: journal approvals)")
    String key;

    @Option(names = "--note", required = true, paramLabel = "TEXT", description = "why you decided so (journaled; a"
            + " denied call's message carries it)")
    String note;

    @Option(names = "--by", paramLabel = "NAME", description = "your name, journaled beside your OS user")
    String byName;

    @Mixin
    VerdictWait waiting;

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
        key = VerdictDelivery.expandKey(cli, key);
        Path dir = cli.journalDir();
        VerdictDelivery.refuseForeignWriter(cli, dir);
        VerdictDelivery delivery = new VerdictDelivery(cli, dir, key, waiting.seconds);
        // checked and recorded alone: a verdict given at the same moment waits, then finds this one standing
        return VerdictTurn.alone(dir, key, waiting.seconds, () -> {
            JournalRecord request = find(dir);
            return delivery.deliver(() -> handOver(delivery, dir, request), writer -> append(writer, request),
                    "this ran; run it again");
        });
    }

    /** The intent's {@code approval_requested} record, checked: it waits for a verdict. */
    private JournalRecord find(Path dir) throws CliException {
        JournalRecord[] request = new JournalRecord[2]; // [0] the request, [1] the verdict on it, if any
        JournalIntents.Intent intent = intent(key, dir, "journal approvals", r -> {
            if (r.type() == RecordType.APPROVAL_REQUESTED) {
                request[0] = r;
            } else if (r.type() == RecordType.APPROVAL) {
                request[1] = r;
            }
        });
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

    /** No live writer: append, as the journal's one writer for a moment. */
    private int append(ChronicleJournal writer, JournalRecord request) throws CliException {
        JournalRecord r = record(request).thread("journal-cli").build();
        VerdictDelivery.appendDurably(writer, r, "verdict");
        report(r, null);
        return JournalCli.OK;
    }

    /**
     * A live writer holds the journal: hand it the verdict and wait (bounded) for its record, as {@code resolve}
     * does. Null when the writer went away before taking it (withdrawn; the caller writes it itself).
     */
    private Integer handOver(VerdictDelivery delivery, Path dir, JournalRecord request) throws CliException {
        ResolutionRequest req = new ResolutionRequest(key, false, note, null, false, request.task(), request.actor(),
                request.call(), request.kind(), 0, null, cli.now(), ProcessHandle.current().pid(), verdict().word(), by());
        String holder = JournalLock.holderOf(dir);
        // another verdict (an expiry, an answer by elicitation) may get there first: the writer refuses this one,
        // and that refusal is what this CLI reports
        JournalRecord recorded = delivery.handOver(req, holder, r -> r.type() == RecordType.APPROVAL
                && key.equals(r.intentKey()) && verdict().word().equals(r.verdict()) && by().equals(r.by()),
                "approval", "; the request was withdrawn and nothing changed; run it again");
        if (recorded == null) {
            return null;
        }
        report(recorded, holder);
        return JournalCli.OK;
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

package dev.effectful.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ResultShape;
import dev.effectful.core.journal.ResultShapes;
import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.core.json.JsonMappers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A person's verdict on an intent nobody can settle automatically.
 *
 * <p>The journal has one writer. With no live writer the CLI takes the writer lock itself and
 * appends the {@code resolution} record, so no agent can start between the check and the append.
 * While an agent writes the journal, the CLI hands the verdict to it instead (a request file, see
 * {@link ResolutionRequest}): that agent checks it, appends the record through its own engine (so
 * its index, and therefore its next call of the intent, sees it at once), and the CLI returns when
 * the record appears in the journal. If it does not appear within {@code --wait} seconds the
 * request is withdrawn and nothing changes: a verdict never lands later, unexpectedly.
 */
@Command(name = "resolve", mixinStandardHelpOptions = true,
        description = {"Record a person's verdict on an unresolved intent: did its effect happen?",
                "--applied yes: the next call of that intent returns ok from the journal, body not run;"
                        + " with --result JSON it returns that value (checked against the tool's return type).",
                "--applied no: the next call runs the body again (next attempt).",
                "Works while an agent writes the journal: that agent records the verdict and acts on it at its"
                        + " next call of the intent, no restart. Exit 4 when it refuses the verdict or has not"
                        + " recorded it within --wait seconds (the request is then withdrawn; nothing changed)."})
final class ResolveCommand extends JournalSubcommand {

    @Parameters(paramLabel = "KEY", description = "the intent key, or its first 6 or more hex digits when they name one key (see: journal unresolved)")
    String key;

    @Option(names = "--applied", required = true, paramLabel = "yes|no", description = "whether the effect happened")
    Applied applied;

    @Option(names = "--note", paramLabel = "TEXT", description = "why you decided so (kept as the record's message;"
            + " the repeat's message carries it)")
    String note;

    @Option(names = "--result", paramLabel = "JSON", description = "with --applied yes: the value the repeat returns,"
            + " as JSON (e.g. '\"receipt-42\"', 42, '{\"id\":7}')")
    String result;

    @Option(names = "--force", description = "record the verdict even if the intent is not unresolved")
    boolean force;

    @Mixin
    VerdictWait waiting;

    enum Applied { yes, no }

    /** The intent being resolved, as the journal shows it. */
    private record Target(JournalIntents.Intent intent, JournalRecord from) {
    }

    @Override
    public Integer call() throws CliException {
        String resultJson = checkedResult();
        if (cli.sharedStore()) {
            return SharedStoreView.resolve(cli, key, applied == Applied.yes, note, resultJson);
        }
        key = VerdictDelivery.expandKey(cli, key);
        Path dir = cli.journalDir();
        VerdictDelivery.refuseForeignWriter(cli, dir);
        VerdictDelivery delivery = new VerdictDelivery(cli, dir, key, waiting.seconds);
        // checked and recorded alone: a verdict given at the same moment waits, then finds this one standing
        return VerdictTurn.alone(dir, key, waiting.seconds, () -> delivery.deliver(
                () -> handOver(delivery, dir, resultJson), writer -> append(writer, dir, resultJson),
                "resolve ran; run resolve again"));
    }

    /** The --result text, compacted; usage errors for a value that cannot be one. */
    private String checkedResult() throws CliException {
        if (result == null) {
            return null;
        }
        if (applied != Applied.yes) {
            throw new CliException(JournalCli.USAGE, "--result only goes with --applied yes (a call that did not"
                    + " apply has no result; it runs again)");
        }
        try {
            JsonNode n = JsonMappers.shared().readTree(result);
            if (n == null || n.isMissingNode()) {
                throw new CliException(JournalCli.USAGE, "--result is empty; give a JSON value, e.g. '\"text\"' or 42");
            }
            return JsonMappers.shared().writeValueAsString(n);
        } catch (IOException e) {
            throw new CliException(JournalCli.USAGE, "--result is not JSON (" + e.getMessage().lines().findFirst()
                    .orElse("") + "); a string needs its quotes, e.g. --result '\"receipt-42\"'");
        }
    }

    /**
     * With no writer running, refuses a --result that can never be what the tool returns, by the shape a
     * writer recorded for it ({@link ResultShapes}): without this the next writer's call would fail decoding
     * it. A journal with no shape for the tool is not checked here. (A live writer checks the real type.)
     */
    private void checkShape(Path dir, Target t, String resultJson) throws CliException {
        if (resultJson == null) {
            return;
        }
        ResultShape shape = ResultShapes.read(dir).get(t.from().call());
        if (shape == null) {
            return;
        }
        try {
            String misfit = shape.misfit(JsonMappers.shared().readTree(resultJson));
            if (misfit != null) {
                throw new CliException(JournalCli.USAGE, "--result " + resultJson + " does not fit " + t.from().call()
                        + ": " + misfit + "; nothing was recorded");
            }
        } catch (IOException e) {
            throw new CliException(JournalCli.USAGE, "--result is not JSON: " + e.getMessage());
        }
    }

    /** No live writer: append, as the journal's one writer for a moment, after the checks a writer would make. */
    private int append(ChronicleJournal writer, Path dir, String resultJson) throws CliException {
        Target t = find(dir);
        checkShape(dir, t, resultJson);
        JournalRecord resolution = JournalRecord.of(RecordType.RESOLUTION)
                .task(t.from().task()).actor(t.from().actor()).call(t.from().call()).kind(t.from().kind())
                .intentKey(key).attempt(t.intent().attempt()).attemptId(t.from().attemptId())
                .started(cli.now()).effectApplied(applied == Applied.yes ? Effect.YES : Effect.NO).message(note).result(resultJson)
                .thread("journal-cli")
                .build();
        VerdictDelivery.appendDurably(writer, resolution, "resolution");
        report(t, resolution, null);
        return JournalCli.OK;
    }

    /**
     * A live writer holds the journal: hand it the verdict and wait (bounded) for its record. Null
     * when the writer went away before taking the request (withdrawn; the caller writes it itself).
     */
    private Integer handOver(VerdictDelivery delivery, Path dir, String resultJson) throws CliException {
        Target t = find(dir); // the writer checks --result against the tool's real type
        ResolutionRequest req = new ResolutionRequest(key, applied == Applied.yes, note, resultJson, force,
                t.from().task(), t.from().actor(), t.from().call(), t.from().kind(), t.intent().attempt(),
                t.from().attemptId(), cli.now(), ProcessHandle.current().pid());
        String holder = JournalLock.holderOf(dir);
        JournalRecord recorded = delivery.handOver(req, holder,
                r -> r.type() == RecordType.RESOLUTION && key.equals(r.intentKey()), "resolution",
                " (an agent older than this CLI, or one that is stuck); the request was withdrawn and nothing changed;"
                        + " run resolve again, or stop that process and run it then");
        if (recorded == null) {
            return null;
        }
        report(t, recorded, holder);
        return JournalCli.OK;
    }

    /** The intent as the journal shows it, checked: known, and unresolved unless --force. */
    private Target find(Path dir) throws CliException {
        JournalRecord[] latest = new JournalRecord[3]; // [0] latest intent, [1] latest record, [2] latest resolution
        JournalIntents.Intent intent = intent(key, dir, "journal unresolved", r -> {
            latest[1] = r;
            if (r.type() == RecordType.INTENT) {
                latest[0] = r;
            } else if (r.type() == RecordType.RESOLUTION) {
                latest[2] = r;
            }
        });
        boolean resolvedByAPerson = intent.state() == JournalIntents.State.RESOLVED_YES
                || intent.state() == JournalIntents.State.RESOLVED_NO;
        if (resolvedByAPerson && !force && latest[2] != null) {
            JournalRecord stands = latest[2];
            throw new CliException(JournalCli.REFUSED, "intent " + key + " is already resolved by a person: effect"
                    + " applied " + (stands.effectApplied() == Effect.YES ? "yes" : "no")
                    + (stands.message() == null ? "" : " (note: " + Table.clean(stands.message()) + ")")
                    + "; nothing to resolve (add --force to record a verdict anyway)");
        }
        if (!intent.state().unresolved && !force) {
            throw new CliException(JournalCli.REFUSED, "intent " + key + " is " + intent.state().word
                    + ", not unresolved; nothing to resolve (add --force to record a verdict anyway)");
        }
        return new Target(intent, latest[0] != null ? latest[0] : latest[1]);
    }

    /** @param writerPid the live writer that recorded it, or null when this CLI wrote it */
    private void report(Target t, JournalRecord resolution, String writerPid) {
        if (cli.json) {
            cli.out.println(Json.record(resolution, cli.zone));
            return;
        }
        cli.out.println("resolved " + key + " (task " + Table.clean(t.from().task()) + ", " + Table.clean(t.from().call()) + ", was "
                + t.intent().state().word + "): effect applied " + applied.name()
                + (writerPid == null ? "" : "; recorded by the running writer (pid " + writerPid + ")"));
        if (applied == Applied.no) {
            cli.out.println("the next call of this intent runs its body again (attempt " + (t.intent().attempt() + 1) + ")");
        } else if (resolution.result() != null) {
            cli.out.println("the next call of this intent returns ok with the value you gave; its body will not run");
        } else {
            cli.out.println("the next call of this intent returns ok from the journal; its body will not run");
        }
    }
}

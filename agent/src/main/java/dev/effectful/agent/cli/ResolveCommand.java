package dev.effectful.agent.cli;

import dev.effectful.runtime.journal.ChronicleJournal;
import dev.effectful.runtime.journal.JournalLock;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.RecordType;
import net.openhft.chronicle.queue.RollCycle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * A person's verdict on an intent nobody can settle automatically. Refused while a writer process
 * holds the journal: the running engine keeps its own view of every intent and would not see a
 * record written behind its back, and two writers would break the one-writer rule. With no live
 * writer it takes the writer lock itself, so no agent can start between the check and the append.
 */
@Command(name = "resolve", mixinStandardHelpOptions = true,
        description = {"Record a person's verdict on an unresolved intent: did its effect happen?",
                "--applied yes: the next call of that intent returns ok from the journal, body not run.",
                "--applied no:  the next call runs the body again (next attempt).",
                "Refused (exit 4) while a process writes to the journal: stop it first."})
final class ResolveCommand implements Callable<Integer> {

    @ParentCommand
    JournalCli cli;

    @Parameters(paramLabel = "KEY", description = "the intent key (see: journal unresolved)")
    String key;

    @Option(names = "--applied", required = true, paramLabel = "yes|no", description = "whether the effect happened")
    Applied applied;

    @Option(names = "--note", paramLabel = "TEXT", description = "why you decided so (kept as the record's message)")
    String note;

    @Option(names = "--force", description = "record the verdict even if the intent is not unresolved")
    boolean force;

    enum Applied { yes, no }

    @Override
    public Integer call() throws CliException {
        if (cli.sharedStore()) {
            return SharedStoreView.resolve(cli, key, applied == Applied.yes, note);
        }
        Path dir = cli.journalDir();
        RollCycle rollCycle;
        try (JournalReader probe = cli.openReader()) {
            // a writer must continue the journal's own roll cycle, not the default one
            rollCycle = probe.queue().rollCycle();
        }
        if (JournalLock.isHeld(dir)) {
            throw refusedLive(dir, JournalLock.holderOf(dir));
        }
        ChronicleJournal writer;
        try {
            writer = ChronicleJournal.openWriter(dir, true, rollCycle, null);
        } catch (JournalLock.JournalLockedException e) {
            throw refusedLive(dir, e.holderPid());
        } catch (IOException | RuntimeException e) {
            throw new CliException(JournalCli.USAGE, "cannot open journal " + dir + " for writing: " + JournalReader.rootMessage(e));
        }
        try (writer) {
            IntentTable table = new IntentTable();
            JournalRecord[] latest = new JournalRecord[2]; // [0] latest intent, [1] latest record of the key
            JournalReader.Report report;
            try (JournalReader reader = cli.openReader()) {
                report = reader.scan((index, r) -> {
                    if (key.equals(r.intentKey())) {
                        table.accept(index, r);
                        latest[1] = r;
                        if (r.type() == RecordType.INTENT) {
                            latest[0] = r;
                        }
                    }
                });
            }
            cli.warn(report);
            int row = table.find(key);
            if (row < 0) {
                throw new CliException(JournalCli.USAGE, "no intent with key '" + Table.clean(key) + "' in " + dir
                        + " (see: journal unresolved)");
            }
            IntentTable.Intent intent = table.intent(row);
            if (!intent.state().unresolved && !force) {
                throw new CliException(JournalCli.REFUSED, "intent " + key + " is " + intent.state().word
                        + ", not unresolved; nothing to resolve (add --force to record a verdict anyway)");
            }
            JournalRecord from = latest[0] != null ? latest[0] : latest[1];
            JournalRecord resolution = JournalRecord.of(RecordType.RESOLUTION)
                    .task(from.task()).actor(from.actor()).call(from.call()).kind(from.kind())
                    .intentKey(key).attempt(intent.attempt()).attemptId(from.attemptId())
                    .started(cli.now()).effectApplied(applied.name()).message(note)
                    .thread("journal-cli")
                    .build();
            try {
                writer.append(resolution);
                writer.sync(); // a person's verdict must survive a power cut too
            } catch (RuntimeException e) {
                throw new CliException(JournalCli.LOOK, "could not write the resolution: " + JournalReader.rootMessage(e));
            }
            if (cli.json) {
                cli.out.println(Json.record(resolution, cli.zone));
            } else {
                cli.out.println("resolved " + key + " (task " + from.task() + ", " + from.call() + ", was "
                        + intent.state().word + "): effect applied " + applied.name());
                cli.out.println(applied == Applied.yes
                        ? "the next call of this intent returns ok from the journal; its body will not run"
                        : "the next call of this intent runs its body again (attempt " + (intent.attempt() + 1) + ")");
            }
            return JournalCli.OK;
        }
    }

    private static CliException refusedLive(Path dir, String pid) {
        return new CliException(JournalCli.REFUSED, "refused: journal " + dir + " is in use by pid " + pid
                + "; stop that process, then run resolve again (a running agent would not see the verdict)");
    }
}

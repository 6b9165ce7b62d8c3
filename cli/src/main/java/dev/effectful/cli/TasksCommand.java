package dev.effectful.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "tasks", mixinStandardHelpOptions = true,
        description = {"One line per task: intents, attempts, ok, failed, unresolved, last activity.",
                "Most recent activity first."})
final class TasksCommand extends JournalSubcommand {

    @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "only the N most recently active tasks (default: all)")
    int limit;

    @Override
    public Integer call() throws CliException {
        if (cli.sharedStore()) {
            return SharedStoreView.tasks(cli);
        }
        JournalIntents.Scanned read;
        try (JournalReader reader = cli.openReader()) {
            read = JournalIntents.scan(reader);
        }
        JournalIntents table = read.table();
        List<JournalIntents.TaskRow> rows = table.tasks();
        if (limit > 0 && rows.size() > limit) {
            rows = rows.subList(0, limit);
        }
        if (cli.json) {
            for (JournalIntents.TaskRow t : rows) {
                cli.out.println(Json.line(g -> {
                    g.writeStringField("task", t.task());
                    Json.str(g, "actor", t.actor());
                    g.writeNumberField("intents", t.intents());
                    g.writeNumberField("attempts", t.attempts());
                    g.writeNumberField("ok", t.ok());
                    g.writeNumberField("failed", t.failed());
                    g.writeNumberField("unresolved", t.unresolved());
                    g.writeNumberField("needs_person", t.forPerson());
                    g.writeNumberField("records", t.records());
                    if (t.lastActivity() > 0) {
                        g.writeStringField("last_activity", Times.iso(t.lastActivity(), cli.zone));
                    }
                }));
            }
        } else if (rows.isEmpty()) {
            cli.out.println("no tasks in " + cli.journalDir());
        } else {
            Table out = new Table("TASK", "ACTOR", "INTENTS>", "ATTEMPTS>", "OK>", "FAILED>", "UNRESOLVED>", "FOR A PERSON>", "LAST ACTIVITY", "AGO>");
            for (JournalIntents.TaskRow t : rows) {
                out.row(t.task(), t.actor(), t.intents(), t.attempts(),
                        new Table.Cell(String.valueOf(t.ok()), t.ok() > 0 ? "32" : null),
                        new Table.Cell(String.valueOf(t.failed()), t.failed() > 0 ? "31" : null),
                        // red only where a person must act; the rest the next call settles (as `unresolved` says)
                        new Table.Cell(String.valueOf(t.unresolved()), t.forPerson() > 0 ? "1;31" : t.unresolved() > 0 ? "33" : null),
                        new Table.Cell(String.valueOf(t.forPerson()), t.forPerson() > 0 ? "1;31" : null),
                        Times.human(t.lastActivity(), cli.zone),
                        t.lastActivity() > 0 ? Times.duration(cli.now() - t.lastActivity()) : null);
            }
            out.print(cli.out, cli.style);
        }
        return cli.warn(read.report());
    }
}

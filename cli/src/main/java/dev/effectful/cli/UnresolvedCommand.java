package dev.effectful.cli;

import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.reentry.ResolveHint;
import picocli.CommandLine.Command;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

@Command(name = "unresolved", mixinStandardHelpOptions = true,
        description = {"Intents whose effect nobody knows and a person must check: outcome unknown, probe failed, or",
                "intended with no outcome (the process died mid-call), for tools whose next call would be held.",
                "Each with task, call, attempt, age, probe result and arguments (redacted ones as fingerprints).",
                "Exit code 3 when there are any. Listed apart, under \"settle on next call\", and not counted: intents",
                "the next call settles by itself (the tool has a probe, is IDEMPOTENT or READ, declares keyable, or the",
                "attempt's key was seen going out: a key_sent record, so the next call re-sends the same key).",
                "An intent with no outcome yet, written by the writer that is live right now, is shown as in-flight",
                "and does not count toward exit code 3. Intents waiting for a person's approval are listed apart,",
                "under \"awaiting approval\" (see: journal approvals), and do not count toward exit code 3 either."})
final class UnresolvedCommand extends JournalSubcommand {

    /** An unresolved intent with what its latest intent record says. */
    record Row(JournalIntents.Intent intent, String state, JournalRecord latestIntent) {
        /** Waits for a person: not the live writer's own call, and not one the next call settles. */
        boolean needsPerson() {
            return !inFlight() && !intent.settles();
        }

        /** The live writer's own call, still running ({@link JournalIntents#IN_FLIGHT}). */
        boolean inFlight() {
            return JournalIntents.inFlight(state);
        }
    }

    @Override
    public Integer call() throws CliException {
        if (cli.sharedStore()) {
            return SharedStoreView.unresolved(cli);
        }
        JournalIntents table;
        JournalReader.Report report;
        List<Row> rows = new ArrayList<>();
        List<ApprovalsCommand.Pending> approvals;
        try (JournalReader reader = cli.openReader()) {
            // the agent's index snapshot and the journal after it, when it can answer; else every record
            SnapshotIntents.Read read = SnapshotIntents.readOrScan(reader);
            table = read.table();
            report = read.report();
            rows = rows(reader, table, read.records());
            approvals = ApprovalsCommand.pending(reader, table, read.records());
        }
        long open = rows.stream().filter(Row::needsPerson).count();
        if (cli.json) {
            for (Row row : rows) {
                cli.out.println(json(row));
            }
            for (ApprovalsCommand.Pending p : approvals) {
                cli.out.println(Json.line(g -> {
                    Json.intent(g, p.intent());
                    g.writeStringField("state", JournalIntents.State.AWAITING_APPROVAL.word);
                    g.writeBooleanField("settles_on_next_call", false);
                    if (p.request() != null && p.request().started() > 0) {
                        Json.since(g, "started", p.request().started(), cli.now(), cli.zone);
                        Json.embedded(g, "args", p.request().args());
                    }
                }));
            }
        } else {
            List<Row> person = rows.stream().filter(r -> !r.intent().settles() || r.inFlight()).toList();
            List<Row> settle = rows.stream().filter(r -> r.intent().settles() && !r.inFlight()).toList();
            if (rows.isEmpty()) {
                cli.out.println("no unresolved intents in " + cli.journalDir());
            } else if (person.isEmpty()) {
                cli.out.println("no intents wait for a person in " + cli.journalDir());
            } else {
                print(person);
            }
            if (!settle.isEmpty()) {
                cli.out.println();
                cli.out.println("Settle on next call (" + settle.size() + "): the next call of each probes, or runs again"
                        + " safely (idempotent, read, keyable, or its key was sent: the same key goes again); nobody needs"
                        + " to act");
                table(settle).print(cli.out, cli.style);
            }
            if (!approvals.isEmpty()) {
                cli.out.println();
                cli.out.println("Awaiting approval (" + approvals.size() + "): nothing ran; a person approves or denies"
                        + " each (journal approve|deny KEY --note TEXT; see: journal approvals)");
                ApprovalsCommand view = new ApprovalsCommand();
                view.cli = cli;
                view.table(approvals).print(cli.out, cli.style);
            }
        }
        int code = cli.warn(report);
        return open > 0 ? JournalCli.UNRESOLVED : code;
    }

    /** The unresolved intents with their latest intent record (for arguments and age), journal order. */
    static List<Row> rows(JournalReader reader, JournalIntents table) {
        return rows(reader, table, Map.of());
    }

    /** As {@link #rows(JournalReader, JournalIntents)}, taking the records in {@code known} from there. */
    static List<Row> rows(JournalReader reader, JournalIntents table, Map<Long, JournalRecord> known) {
        return rows(reader, table.unresolved(), known);
    }

    /** The rows of {@code unresolved} (unresolved intents of one table, journal order), as {@link #rows} makes them. */
    static List<Row> rows(JournalReader reader, List<JournalIntents.Intent> unresolved, Map<Long, JournalRecord> known) {
        String livePid = JournalLock.isHeld(reader.directory()) ? JournalLock.holderOf(reader.directory()) : null;
        List<Row> rows = new ArrayList<>();
        Map<Long, JournalRecord> read = reader.readAll(unresolved.stream().mapToLong(JournalIntents.Intent::intentIndex)
                .filter(at -> !known.containsKey(at)).toArray());
        for (JournalIntents.Intent i : unresolved) {
            JournalRecord r = known.get(i.intentIndex());
            Optional<JournalRecord> rec = Optional.ofNullable(r != null ? r : read.get(i.intentIndex()));
            String state = i.state().word;
            if (i.state() == JournalIntents.State.NO_OUTCOME && livePid != null && rec.isPresent()
                    && livePid.equals(String.valueOf(rec.get().pid()))) {
                state = JournalIntents.IN_FLIGHT;
            }
            rows.add(new Row(i, state, rec.orElse(null)));
        }
        return rows;
    }

    private void print(List<Row> rows) {
        table(rows).print(cli.out, cli.style);
        cli.out.println();
        cli.out.println("Check each effect at its receiver, then record the verdict (works while the agent runs), e.g.:");
        // the whole command, ready to paste from any directory: the model's answer leaves it out on purpose
        cli.out.println("  " + ResolveHint.forJournal(cli.journalDir()).command(rows.get(0).intent().key()));
        cli.out.println("  (--applied no if it did not apply; --result JSON gives the value a repeat returns)");
    }

    private Table table(List<Row> rows) {
        Table t = new Table("TASK", "CALL", "KIND", "KEY", "ATT>", "STATE", "PROBE", "AGE>", "STARTED", "ARGS");
        for (Row row : rows) {
            JournalIntents.Intent i = row.intent();
            JournalRecord r = row.latestIntent();
            long started = r == null ? 0 : r.started();
            t.row(i.task(), i.call(), i.kind(), i.key(), i.attempt() == 0 ? null : i.attempt(),
                    new Table.Cell(row.state(), row.inFlight() ? "33" : "1;31"),
                    new Table.Cell(i.probe() == null ? "-" : i.probe(), Style.codeFor(i.probe())),
                    started > 0 ? Times.duration(cli.now() - started) : null,
                    Times.human(started, cli.zone),
                    r == null ? null : Json.compact(r.args(), 80));
        }
        return t;
    }

    private String json(Row row) {
        JournalIntents.Intent i = row.intent();
        JournalRecord r = row.latestIntent();
        return Json.line(g -> {
            Json.intent(g, i);
            if (i.attempt() != 0) {
                g.writeNumberField("attempt", i.attempt());
            }
            if (r != null) {
                Json.str(g, "attempt_id", r.attemptId());
            }
            g.writeStringField("state", row.state());
            g.writeBooleanField("settles_on_next_call", row.intent().settles());
            Json.str(g, "probe", i.probe());
            if (r != null && r.started() > 0) {
                Json.since(g, "started", r.started(), cli.now(), cli.zone);
            }
            if (r != null) {
                Json.embedded(g, "args", r.args());
                if (r.pid() != 0) {
                    g.writeNumberField("pid", r.pid());
                }
            }
        });
    }
}

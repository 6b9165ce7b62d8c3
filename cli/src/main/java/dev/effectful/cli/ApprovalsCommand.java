package dev.effectful.cli;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.core.store.StoreView;
import picocli.CommandLine.Command;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code journal approvals}: the intents waiting for a person's approval, oldest first, each with what
 * the person needs to decide: task, actor, tool, kind, age and the arguments as the request journaled them
 * ({@code @Redact} values only as their fingerprints: the journal never held more).
 */
@Command(name = "approvals", mixinStandardHelpOptions = true,
        description = {"Intents waiting for a person's approval: task, actor, tool, kind, age and the arguments as"
                + " journaled (redacted ones as fingerprints). Approve with: journal approve KEY --note TEXT; deny"
                + " with: journal deny KEY --note TEXT. Exit code 3 when any are waiting."})
final class ApprovalsCommand extends JournalSubcommand {

    /** A waiting approval with its request record (arguments and time). */
    record Pending(JournalIntents.Intent intent, JournalRecord request) {
    }

    @Override
    public Integer call() throws CliException {
        if (cli.sharedStore()) {
            return shared();
        }
        List<Pending> rows = new ArrayList<>();
        JournalReader.Report report;
        try (JournalReader reader = cli.openReader()) {
            SnapshotIntents.Read read = SnapshotIntents.readOrScan(reader);
            report = read.report();
            rows = pending(reader, read.table(), read.records());
        }
        if (cli.json) {
            for (Pending p : rows) {
                cli.out.println(json(p));
            }
        } else if (rows.isEmpty()) {
            cli.out.println("no intents wait for approval in " + cli.journalDir());
        } else {
            table(rows).print(cli.out, cli.style);
            cli.out.println();
            cli.out.println("Decide each, with a note saying why (the journal keeps who, when and why):");
            cli.out.println("  journal approve KEY --note TEXT   (the next call of that intent runs its body once)");
            cli.out.println("  journal deny KEY --note TEXT      (every call of that intent is refused for good)");
        }
        int code = cli.warn(report);
        return rows.isEmpty() ? code : JournalCli.UNRESOLVED;
    }

    /** The intents awaiting approval with their request record, journal order. */
    static List<Pending> pending(JournalReader reader, JournalIntents table) {
        return pending(reader, table, Map.of());
    }

    /** As {@link #pending(JournalReader, JournalIntents)}, taking the records in {@code known} from there. */
    static List<Pending> pending(JournalReader reader, JournalIntents table, Map<Long, JournalRecord> known) {
        List<Pending> rows = new ArrayList<>();
        List<JournalIntents.Intent> waiting = table.awaitingApproval();
        Map<Long, JournalRecord> read = reader.readAll(waiting.stream().mapToLong(JournalIntents.Intent::intentIndex)
                .filter(at -> !known.containsKey(at)).toArray());
        for (JournalIntents.Intent i : waiting) {
            JournalRecord r = known.get(i.intentIndex());
            rows.add(new Pending(i, r != null ? r : read.get(i.intentIndex())));
        }
        return rows;
    }

    Table table(List<Pending> rows) {
        Table t = new Table("TASK", "ACTOR", "CALL", "KIND", "KEY", "AGE>", "REQUESTED", "ARGS");
        for (Pending p : rows) {
            JournalIntents.Intent i = p.intent();
            long started = p.request() == null ? 0 : p.request().started();
            t.row(i.task(), i.actor(), i.call(), i.kind(), i.key(),
                    started > 0 ? Times.duration(cli.now() - started) : null, Times.human(started, cli.zone),
                    p.request() == null ? null : Json.compact(p.request().args(), 80));
        }
        return t;
    }

    private String json(Pending p) {
        JournalRecord r = p.request();
        return Json.line(g -> {
            Json.intent(g, p.intent());
            g.writeStringField("state", JournalIntents.State.AWAITING_APPROVAL.word);
            if (r != null && r.started() > 0) {
                Json.since(g, "requested", r.started(), cli.now(), cli.zone);
            }
            if (r != null) {
                Json.embedded(g, "args", r.args());
            }
        });
    }

    /** {@code --store postgres}: the fleet's waiting approvals, from the shared store (arguments stay in each host's journal). */
    private int shared() throws CliException {
        try (StoreView view = SharedStoreView.open(cli.store)) {
            List<StoreView.PendingApproval> rows = view.approvals();
            Table t = new Table("TASK", "CALL", "KIND", "KEY", "HOST", "AGE>", "REQUESTED");
            for (StoreView.PendingApproval a : rows) {
                long at = a.requested().toEpochMilli();
                if (cli.json) {
                    cli.out.println(Json.line(g -> {
                        Json.intent(g, a.task(), null, a.call(), a.kind(), a.intentKey());
                        g.writeStringField("state", JournalIntents.State.AWAITING_APPROVAL.word);
                        Json.str(g, "host", a.host());
                        Json.since(g, "requested", at, cli.now(), cli.zone);
                    }));
                } else {
                    t.row(a.task(), a.call(), a.kind(), a.intentKey(), a.host(), Times.duration(cli.now() - at),
                            Times.human(at, cli.zone));
                }
            }
            if (!cli.json) {
                if (rows.isEmpty()) {
                    cli.out.println("no intents wait for approval in the shared store");
                } else {
                    t.print(cli.out, cli.style);
                }
            }
            return rows.isEmpty() ? JournalCli.OK : JournalCli.UNRESOLVED;
        } catch (StoreUnavailableException e) {
            throw new CliException(JournalCli.USAGE, "shared store unavailable: " + e.getMessage());
        } catch (UnsupportedOperationException e) {
            throw new CliException(JournalCli.USAGE, e.getMessage());
        }
    }
}

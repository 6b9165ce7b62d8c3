package dev.effectful.agent.cli;

import dev.effectful.runtime.journal.CycleFileScan;
import dev.effectful.runtime.journal.JournalLock;
import dev.effectful.runtime.journal.JournalSalvage;
import dev.effectful.runtime.journal.RecordType;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Integrity check: record counts per type, undecodable records, an incomplete tail record,",
                "cycle files damaged (truncated, overwritten) or moved aside by a writer, with file and byte offset,",
                "intents without outcome and unknown outcomes. Exit 0 when sound, 1 when a person must look.",
                "Beside a live writer, its own in-flight intents and a tail record it is writing are reported but",
                "are not failures."})
final class VerifyCommand implements Callable<Integer> {

    @ParentCommand
    JournalCli cli;

    @Override
    public Integer call() throws CliException {
        Path dir = cli.journalDir();
        IntentTable table;
        JournalReader.Report report;
        List<UnresolvedCommand.Row> unresolved;
        try (JournalReader reader = cli.openReader()) {
            table = IntentTable.forJournal(reader);
            report = reader.scanSummaries(table::accept);
            unresolved = UnresolvedCommand.rows(reader, table);
        }
        boolean live = JournalLock.isHeld(dir);
        String pid = live ? JournalLock.holderOf(dir) : null;
        long inFlight = unresolved.stream().filter(r -> r.state().equals("in-flight")).count();
        long noOutcome = unresolved.stream().filter(r -> r.state().equals("no-outcome")).count();
        long unknown = unresolved.stream().filter(r -> r.intent().state() == IntentTable.State.UNKNOWN).count();
        long probeFailed = unresolved.stream().filter(r -> r.intent().state() == IntentTable.State.PROBE_FAILED).count();
        long[] files = cycleFiles(dir);
        List<String> damagedFiles = damagedFiles(dir);

        List<String> problems = new ArrayList<>(damagedFiles);
        if (report.damage() != null) {
            problems.add("damaged: " + report.damage());
        }
        if (report.stalled()) {
            problems.add("reading stopped advancing after " + report.records() + " records");
        }
        if (report.unreadable() > 0) {
            problems.add(report.unreadable() + " undecodable record(s)");
        }
        if (report.incompleteTail() && !live) {
            problems.add("incomplete tail record (the writer stopped mid-write)");
        }
        if (noOutcome > 0) {
            problems.add(noOutcome + " intent(s) without outcome (crash mid-call)");
        }
        if (unknown + probeFailed > 0) {
            problems.add((unknown + probeFailed) + " intent(s) with unknown effect");
        }

        if (cli.json) {
            cli.out.println(Json.line(g -> {
                g.writeStringField("dir", dir.toString());
                g.writeBooleanField("sound", problems.isEmpty());
                g.writeNumberField("cycle_files", files[0]);
                g.writeNumberField("bytes", files[1]);
                g.writeBooleanField("writer_live", live);
                if (pid != null) {
                    g.writeStringField("writer_pid", pid);
                }
                g.writeNumberField("records", report.records());
                g.writeObjectFieldStart("types");
                for (RecordType t : RecordType.values()) {
                    g.writeNumberField(t.word(), table.count(t));
                }
                g.writeEndObject();
                g.writeNumberField("intent_keys", table.size());
                g.writeNumberField("unreadable", report.unreadable());
                g.writeBooleanField("incomplete_tail", report.incompleteTail());
                g.writeNumberField("without_outcome", noOutcome);
                g.writeNumberField("in_flight", inFlight);
                g.writeNumberField("unknown", unknown);
                g.writeNumberField("probe_failed", probeFailed);
                Json.str(g, "damage", report.damage());
                g.writeBooleanField("stalled", report.stalled());
                g.writeArrayFieldStart("damaged_files");
                for (String d : damagedFiles) {
                    g.writeString(d);
                }
                g.writeEndArray();
                g.writeArrayFieldStart("problems");
                for (String p : problems) {
                    g.writeString(p);
                }
                g.writeEndArray();
            }));
        } else {
            Table t = new Table("CHECK", "VALUE>", "");
            t.row("journal", "", dir.toString());
            t.row("cycle files", files[0], Times.bytes(files[1]));
            t.row("writer", live ? "live" : "none", live ? "pid " + pid : "no process holds the journal");
            t.row("records", report.records(), "");
            t.row(cell("damaged files", !damagedFiles.isEmpty()), damagedFiles.size(), "");
            for (RecordType type : RecordType.values()) {
                t.row("  " + type.word(), table.count(type), "");
            }
            t.row("intent keys", table.size(), "");
            t.row(cell("undecodable records", report.unreadable() > 0), report.unreadable(), "");
            t.row(cell("incomplete tail", report.incompleteTail() && !live), report.incompleteTail() ? "yes" : "no",
                    report.incompleteTail() && live ? "a live writer may be mid-write" : "");
            t.row(cell("without outcome", noOutcome > 0), noOutcome, noOutcome > 0 ? "see: journal unresolved" : "");
            t.row("in flight", inFlight, inFlight > 0 ? "written by the live writer" : "");
            t.row(cell("unknown outcome", unknown > 0), unknown, "");
            t.row(cell("probe failed", probeFailed > 0), probeFailed, "");
            t.print(cli.out, cli.style);
            cli.out.println();
            if (problems.isEmpty()) {
                cli.out.println(cli.style.paint("32", "sound"));
            } else {
                cli.out.println(cli.style.paint("1;31", "needs a look: ") + Table.clean(String.join("; ", problems)));
            }
        }
        return problems.isEmpty() ? JournalCli.OK : JournalCli.LOOK;
    }

    private static Table.Cell cell(String label, boolean bad) {
        return new Table.Cell(label, bad ? "1;31" : "");
    }

    /**
     * Every cycle file read byte by byte (Chronicle's tailer stops early on a truncated file without
     * saying so), and every file a writer moved aside as damaged: each stays a problem until an
     * operator has looked and removed it from the directory.
     */
    private static List<String> damagedFiles(Path dir) {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                String name = p.getFileName().toString();
                boolean aside = name.contains(".cq4" + JournalSalvage.DAMAGED) || name.contains(".cq4.salvaging-");
                if (!name.endsWith(".cq4") && !aside) {
                    continue;
                }
                try {
                    CycleFileScan.Result r = CycleFileScan.full(p);
                    if (aside) {
                        out.add("damaged cycle file moved aside by the writer: " + (r.damaged() ? r.describe() : name)
                                + " (those records were copied into the journal; remove the file once looked at)");
                    } else if (r.damaged()) {
                        out.add("damaged cycle file " + r.describe() + "; nothing after it can be read");
                    }
                } catch (IOException e) {
                    out.add("cannot read cycle file " + name + ": " + e.getMessage());
                }
            }
        } catch (IOException ignored) {
            // the scan already reported an unreadable directory
        }
        return out;
    }

    /** Count and total size of the cycle files; sizes are allocated sizes (Chronicle pre-sizes files). */
    private static long[] cycleFiles(Path dir) {
        long n = 0;
        long bytes = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.getFileName().toString().endsWith(".cq4")) {
                    n++;
                    try {
                        bytes += Files.size(p);
                    } catch (IOException ignored) {
                        // a file removed by retention while we list: not counted
                    }
                }
            }
        } catch (IOException ignored) {
            // the scan already reported an unreadable directory
        }
        return new long[]{n, bytes};
    }
}

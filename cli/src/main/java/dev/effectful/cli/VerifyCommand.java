package dev.effectful.cli;

import dev.effectful.core.journal.CycleFileScan;
import dev.effectful.core.journal.DamageAcknowledgements;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalSalvage;
import dev.effectful.core.journal.RecordDamage;
import dev.effectful.core.journal.RecordType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Integrity check: record counts per type, records whose checksum fails (each with cycle file,",
                "byte offset and whose record it is when that is known), undecodable records, an incomplete tail record,",
                "cycle files damaged (truncated, overwritten) or moved aside by a writer, intents waiting for a person.",
                "Exit 0 when sound; 1 when damaged; 3 when sound but intents wait for a person (see: journal unresolved).",
                "Intents the next call settles by itself (probe, IDEMPOTENT, READ, keyable, key sent) are counted, not failures.",
                "Beside a live writer, its own in-flight intents and a tail record it is writing are reported but",
                "are not failures.",
                "--acknowledge: after checking the effects of the tasks named, record that a person has looked at",
                "every damaged record found (file damage-acknowledged beside the journal); the agent then stops",
                "holding effectful calls for them, within a second, without a restart. Acknowledged records are",
                "still listed, and no longer fail the check."})
final class VerifyCommand implements Callable<Integer> {

    @ParentCommand
    JournalCli cli;

    @Option(names = "--acknowledge", description = "record that a person has looked at every damaged record found")
    boolean acknowledge;

    @Override
    public Integer call() throws CliException {
        Path dir = cli.journalDir();
        JournalIntents table;
        JournalReader.Report report;
        List<UnresolvedCommand.Row> unresolved;
        try (JournalReader reader = cli.openReader()) {
            table = JournalIntents.forJournal(reader);
            report = reader.scanSummaries(table::accept);
            unresolved = UnresolvedCommand.rows(reader, table);
        }
        boolean live = JournalLock.isHeld(dir);
        String pid = live ? JournalLock.holderOf(dir) : null;
        long inFlight = unresolved.stream().filter(UnresolvedCommand.Row::inFlight).count();
        List<UnresolvedCommand.Row> forPerson = unresolved.stream().filter(UnresolvedCommand.Row::needsPerson).toList();
        long settles = unresolved.stream().filter(r -> !r.inFlight() && r.intent().settles()).count();
        long noOutcome = forPerson.stream().filter(r -> r.state().equals(JournalIntents.State.NO_OUTCOME.word)).count();
        long unknown = forPerson.stream().filter(r -> r.intent().state() == JournalIntents.State.UNKNOWN).count();
        long probeFailed = forPerson.stream().filter(r -> r.intent().state() == JournalIntents.State.PROBE_FAILED).count();
        List<RecordDamage> inFiles = new ArrayList<>();
        List<String> damagedFiles = damagedFiles(dir, inFiles);
        List<RecordDamage> allDamage = new ArrayList<>(report.damaged());
        allDamage.addAll(inFiles);
        int acknowledgedNow = 0;
        if (acknowledge && !allDamage.isEmpty()) {
            java.util.Optional<String> foreign = dev.effectful.core.journal.JournalOwners.cliWriteProblem(dir, cli.env);
            if (foreign.isPresent()) {
                throw new CliException(JournalCli.REFUSED, "refused: " + foreign.get());
            }
            try {
                acknowledgedNow = DamageAcknowledgements.acknowledge(dir, allDamage,
                        "journal verify --acknowledge by " + System.getProperty("user.name", "?"));
            } catch (IOException e) {
                throw new CliException(JournalCli.LOOK, "cannot write " + dir.resolve(DamageAcknowledgements.FILE)
                        + ": " + e.getMessage());
            }
        }
        Set<String> acked = DamageAcknowledgements.read(dir);
        List<RecordDamage> openDamage = allDamage.stream().filter(d -> !acked.contains(d.id())).toList();
        long undecodable = report.unreadable() - report.damaged().size();
        long[] files = cycleFiles(dir);

        // a file moved aside stays listed, but once its records are acknowledged it no longer fails
        List<String> problems = new ArrayList<>(damagedFiles.stream().filter(f -> !f.startsWith(ASIDE)
                || !allAcknowledged(f, inFiles, acked)).toList());
        if (report.damage() != null) {
            problems.add("damaged: " + report.damage());
        }
        if (report.stalled()) {
            problems.add("reading stopped advancing after " + report.records() + " records");
        }
        for (RecordDamage d : openDamage) {
            problems.add(d.describe());
        }
        if (undecodable > 0) {
            problems.add(undecodable + " undecodable record(s)");
        }
        if (report.incompleteTail() && !live) {
            problems.add("incomplete tail record (the writer stopped mid-write)");
        }
        // intents are not damage: they wait for a person (exit 3), and only when the journal is sound
        List<String> waiting = new ArrayList<>();
        if (noOutcome > 0) {
            waiting.add(noOutcome + " intent(s) without outcome (crash mid-call) wait for a person");
        }
        if (unknown + probeFailed > 0) {
            waiting.add((unknown + probeFailed) + " intent(s) with unknown effect wait for a person");
        }
        int code = !problems.isEmpty() ? JournalCli.LOOK : !waiting.isEmpty() ? JournalCli.UNRESOLVED : JournalCli.OK;

        if (cli.json) {
            cli.out.println(Json.line(g -> {
                g.writeStringField("dir", dir.toString());
                g.writeBooleanField("sound", problems.isEmpty());
                g.writeNumberField("exit", code);
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
                g.writeNumberField("unchecked", report.unchecked());
                g.writeNumberField("settle_on_next_call", settles);
                g.writeArrayFieldStart("damaged_records");
                for (RecordDamage d : allDamage) {
                    g.writeStartObject();
                    g.writeStringField("id", d.id());
                    g.writeStringField("where", d.where());
                    g.writeBooleanField("attributed", d.attributed());
                    Json.str(g, "task", d.task());
                    Json.str(g, "intent_key", d.key());
                    Json.str(g, "type", d.type());
                    g.writeBooleanField("acknowledged", acked.contains(d.id()));
                    g.writeEndObject();
                }
                g.writeEndArray();
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
                g.writeArrayFieldStart("waiting_for_person");
                for (String p : waiting) {
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
            t.row(cell("damaged records", !openDamage.isEmpty()), allDamage.size(),
                    allDamage.isEmpty() ? "checksum of every record matches"
                            : (allDamage.size() - openDamage.size()) + " acknowledged");
            t.row("unchecked records", report.unchecked(), report.unchecked() > 0 ? "written before checksums" : "");
            t.row(cell("undecodable records", undecodable > 0), undecodable, "");
            t.row(cell("incomplete tail", report.incompleteTail() && !live), report.incompleteTail() ? "yes" : "no",
                    report.incompleteTail() && live ? "a live writer may be mid-write" : "");
            t.row(cell("without outcome", noOutcome > 0), noOutcome, noOutcome > 0 ? "see: journal unresolved" : "");
            t.row("in flight", inFlight, inFlight > 0 ? "written by the live writer" : "");
            t.row(cell("unknown outcome", unknown > 0), unknown, "");
            t.row(cell("probe failed", probeFailed > 0), probeFailed, "");
            t.row("settle on next call", settles, settles > 0 ? "probe, idempotent, read, keyable or key sent" : "");
            t.print(cli.out, cli.style);
            cli.out.println();
            for (RecordDamage d : allDamage) {
                cli.out.println((acked.contains(d.id()) ? "acknowledged: " : cli.style.paint("1;31", "DAMAGED: "))
                        + Table.clean(d.describe()));
            }
            if (acknowledgedNow > 0) {
                cli.out.println("acknowledged " + acknowledgedNow + " damaged record(s) in "
                        + dir.resolve(DamageAcknowledgements.FILE) + "; the agent stops holding calls for them");
            } else if (!openDamage.isEmpty()) {
                cli.out.println("The agent holds effectful calls for these (their task's, or every one when the task"
                        + " cannot be read). Check those effects at their receivers, then: journal verify --acknowledge");
            }
            if (!problems.isEmpty()) {
                cli.out.println(cli.style.paint("1;31", "damaged: ") + Table.clean(String.join("; ", problems)));
            } else if (!waiting.isEmpty()) {
                cli.out.println(cli.style.paint("33", "sound; waiting for a person: ") + Table.clean(String.join("; ", waiting))
                        + " (see: journal unresolved)");
            } else {
                cli.out.println(cli.style.paint("32", "sound"));
            }
        }
        return code;
    }

    private static Table.Cell cell(String label, boolean bad) {
        return new Table.Cell(label, bad ? "1;31" : "");
    }

    /**
     * Every cycle file read byte by byte (Chronicle's tailer stops early on a truncated file without
     * saying so), and every file a writer moved aside as damaged: each stays a problem until an
     * operator has looked and removed it from the directory.
     */
    /** True when the file named in {@code line} had damaged records and every one is acknowledged. */
    private static boolean allAcknowledged(String line, List<RecordDamage> inFiles, Set<String> acked) {
        List<RecordDamage> mine = inFiles.stream().filter(d -> line.contains(d.id().split("@")[0])).toList();
        return !mine.isEmpty() && mine.stream().allMatch(d -> acked.contains(d.id()));
    }

    private static final String ASIDE = "damaged cycle file moved aside by the writer: ";

    private static List<String> damagedFiles(Path dir, List<RecordDamage> records) {
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
                    if (aside || r.damaged()) {
                        // records in a moved file, or hidden by a broken header, are read by no tailer:
                        // only this scan can name them (a checksum failure in a sound file is the tailer's)
                        for (CycleFileScan.Bad b : r.damagedRecords()) {
                            records.add(RecordDamage.inFile(name, b));
                        }
                    }
                    if (aside) {
                        out.add(ASIDE + (r.damaged() ? r.describe() : name)
                                + " (those records were copied into the journal; remove the file once looked at)");
                    } else if (r.damaged()) { // file-level: cut or overwritten headers (records: see the scan)
                        out.add("damaged cycle file " + r.describe() + "; Chronicle reads nothing after it"
                                + " (a writer's next start copies the complete records before and after it)");
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

package dev.effectful.cli;

import dev.effectful.core.journal.CycleFileScan;
import dev.effectful.core.journal.DamageAcknowledgements;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalSalvage;
import dev.effectful.core.journal.RecordDamage;
import dev.effectful.core.journal.RecordType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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
final class VerifyCommand extends JournalSubcommand {

    @Option(names = "--acknowledge", description = "record that a person has looked at every damaged record found")
    boolean acknowledge;

    @Override
    public Integer call() throws CliException {
        Findings f = check();
        if (cli.json) {
            printJson(f);
        } else {
            printTable(f);
        }
        return f.code();
    }

    /** Everything the check found, as both the table and the JSON line show it. */
    private record Findings(Path dir, JournalIntents table, JournalReader.Report report, boolean live, String pid,
                            long inFlight, long settles, long noOutcome, long unknown, long probeFailed,
                            List<String> damagedFiles, List<RecordDamage> allDamage, List<RecordDamage> openDamage,
                            Set<String> acked, int acknowledgedNow, long undecodable, long[] files, List<String> problems,
                            List<String> waiting, int code) {
    }

    private Findings check() throws CliException {
        Path dir = cli.journalDir();
        JournalIntents.Scanned read;
        List<UnresolvedCommand.Row> unresolved;
        try (JournalReader reader = cli.openReader()) {
            read = JournalIntents.scan(reader);
            unresolved = UnresolvedCommand.rows(reader, read.table());
        }
        JournalIntents table = read.table();
        JournalReader.Report report = read.report();
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
        int acknowledgedNow = acknowledge && !allDamage.isEmpty() ? acknowledge(dir, allDamage) : 0;
        Set<String> acked = DamageAcknowledgements.read(dir);
        List<RecordDamage> openDamage = allDamage.stream().filter(d -> !acked.contains(d.id())).toList();
        long undecodable = report.unreadable() - report.damaged().size();
        List<String> problems = problems(report, live, damagedFiles, inFiles, acked, openDamage, undecodable);
        // intents are not damage: they wait for a person (exit 3), and only when the journal is sound
        List<String> waiting = new ArrayList<>();
        if (noOutcome > 0) {
            waiting.add(noOutcome + " intent(s) without outcome (crash mid-call) wait for a person");
        }
        if (unknown + probeFailed > 0) {
            waiting.add((unknown + probeFailed) + " intent(s) with unknown effect wait for a person");
        }
        int code = !problems.isEmpty() ? JournalCli.LOOK : !waiting.isEmpty() ? JournalCli.UNRESOLVED : JournalCli.OK;
        return new Findings(dir, table, report, live, pid, inFlight, settles, noOutcome, unknown, probeFailed,
                damagedFiles, allDamage, openDamage, acked, acknowledgedNow, undecodable, cycleFiles(dir), problems,
                waiting, code);
    }

    /** {@code --acknowledge}: records that a person looked at every damaged record; how many were new. */
    private int acknowledge(Path dir, List<RecordDamage> allDamage) throws CliException {
        java.util.Optional<String> foreign = dev.effectful.core.journal.JournalOwners.cliWriteProblem(dir, cli.env);
        if (foreign.isPresent()) {
            throw new CliException(JournalCli.REFUSED, "refused: " + foreign.get());
        }
        try {
            return DamageAcknowledgements.acknowledge(dir, allDamage,
                    "journal verify --acknowledge by " + System.getProperty("user.name", "?"));
        } catch (IOException e) {
            throw new CliException(JournalCli.LOOK, "cannot write " + dir.resolve(DamageAcknowledgements.FILE)
                    + ": " + e.getMessage());
        }
    }

    /** What fails the check: damaged files and records not acknowledged, undecodable records, a dead writer's torn tail. */
    private static List<String> problems(JournalReader.Report report, boolean live, List<String> damagedFiles,
                                         List<RecordDamage> inFiles, Set<String> acked, List<RecordDamage> openDamage,
                                         long undecodable) {
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
        return problems;
    }

    private void printJson(Findings f) {
        cli.out.println(Json.line(g -> {
            g.writeStringField("dir", f.dir().toString());
            g.writeBooleanField("sound", f.problems().isEmpty());
            g.writeNumberField("exit", f.code());
            g.writeNumberField("cycle_files", f.files()[0]);
            g.writeNumberField("bytes", f.files()[1]);
            g.writeBooleanField("writer_live", f.live());
            if (f.pid() != null) {
                g.writeStringField("writer_pid", f.pid());
            }
            g.writeNumberField("records", f.report().records());
            g.writeObjectFieldStart("types");
            for (RecordType t : RecordType.values()) {
                g.writeNumberField(t.word(), f.table().count(t));
            }
            g.writeEndObject();
            g.writeNumberField("intent_keys", f.table().size());
            g.writeNumberField("unreadable", f.report().unreadable());
            g.writeNumberField("unchecked", f.report().unchecked());
            g.writeNumberField("settle_on_next_call", f.settles());
            g.writeArrayFieldStart("damaged_records");
            for (RecordDamage d : f.allDamage()) {
                g.writeStartObject();
                g.writeStringField("id", d.id());
                g.writeStringField("where", d.where());
                g.writeBooleanField("attributed", d.attributed());
                Json.str(g, "task", d.task());
                Json.str(g, "intent_key", d.key());
                Json.str(g, "type", d.type());
                g.writeBooleanField("acknowledged", f.acked().contains(d.id()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeBooleanField("incomplete_tail", f.report().incompleteTail());
            g.writeNumberField("without_outcome", f.noOutcome());
            g.writeNumberField("in_flight", f.inFlight());
            g.writeNumberField("unknown", f.unknown());
            g.writeNumberField("probe_failed", f.probeFailed());
            Json.str(g, "damage", f.report().damage());
            g.writeBooleanField("stalled", f.report().stalled());
            g.writeArrayFieldStart("damaged_files");
            for (String d : f.damagedFiles()) {
                g.writeString(d);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("problems");
            for (String p : f.problems()) {
                g.writeString(p);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("waiting_for_person");
            for (String p : f.waiting()) {
                g.writeString(p);
            }
            g.writeEndArray();
        }));
    }

    private void printTable(Findings f) {
        Table t = new Table("CHECK", "VALUE>", "");
        t.row("journal", "", f.dir().toString());
        t.row("cycle files", f.files()[0], Times.bytes(f.files()[1]));
        t.row("writer", f.live() ? "live" : "none", f.live() ? "pid " + f.pid() : "no process holds the journal");
        t.row("records", f.report().records(), "");
        t.row(cell("damaged files", !f.damagedFiles().isEmpty()), f.damagedFiles().size(), "");
        for (RecordType type : RecordType.values()) {
            t.row("  " + type.word(), f.table().count(type), "");
        }
        t.row("intent keys", f.table().size(), "");
        t.row(cell("damaged records", !f.openDamage().isEmpty()), f.allDamage().size(),
                f.allDamage().isEmpty() ? "checksum of every record matches"
                        : (f.allDamage().size() - f.openDamage().size()) + " acknowledged");
        t.row("unchecked records", f.report().unchecked(), f.report().unchecked() > 0 ? "written before checksums" : "");
        t.row(cell("undecodable records", f.undecodable() > 0), f.undecodable(), "");
        t.row(cell("incomplete tail", f.report().incompleteTail() && !f.live()), f.report().incompleteTail() ? "yes" : "no",
                f.report().incompleteTail() && f.live() ? "a live writer may be mid-write" : "");
        t.row(cell("without outcome", f.noOutcome() > 0), f.noOutcome(), f.noOutcome() > 0 ? "see: journal unresolved" : "");
        t.row("in flight", f.inFlight(), f.inFlight() > 0 ? "written by the live writer" : "");
        t.row(cell("unknown outcome", f.unknown() > 0), f.unknown(), "");
        t.row(cell("probe failed", f.probeFailed() > 0), f.probeFailed(), "");
        t.row("settle on next call", f.settles(), f.settles() > 0 ? "probe, idempotent, read, keyable or key sent" : "");
        t.print(cli.out, cli.style);
        cli.out.println();
        for (RecordDamage d : f.allDamage()) {
            cli.out.println((f.acked().contains(d.id()) ? "acknowledged: " : cli.style.paint("1;31", "DAMAGED: "))
                    + Table.clean(d.describe()));
        }
        if (f.acknowledgedNow() > 0) {
            cli.out.println("acknowledged " + f.acknowledgedNow() + " damaged record(s) in "
                    + f.dir().resolve(DamageAcknowledgements.FILE) + "; the agent stops holding calls for them");
        } else if (!f.openDamage().isEmpty()) {
            cli.out.println("The agent holds effectful calls for these (their task's, or every one when the task"
                    + " cannot be read). Check those effects at their receivers, then: journal verify --acknowledge");
        }
        if (!f.problems().isEmpty()) {
            cli.out.println(cli.style.paint("1;31", "damaged: ") + Table.clean(String.join("; ", f.problems())));
        } else if (!f.waiting().isEmpty()) {
            cli.out.println(cli.style.paint("33", "sound; waiting for a person: ") + Table.clean(String.join("; ", f.waiting()))
                    + " (see: journal unresolved)");
        } else {
            cli.out.println(cli.style.paint("32", "sound"));
        }
    }

    private static Table.Cell cell(String label, boolean bad) {
        return new Table.Cell(label, bad ? "1;31" : "");
    }

    /** True when the file named in {@code line} had damaged records and every one is acknowledged. */
    private static boolean allAcknowledged(String line, List<RecordDamage> inFiles, Set<String> acked) {
        List<RecordDamage> mine = inFiles.stream().filter(d -> line.contains(d.id().split("@")[0])).toList();
        return !mine.isEmpty() && mine.stream().allMatch(d -> acked.contains(d.id()));
    }

    private static final String ASIDE = "damaged cycle file moved aside by the writer: ";

    /**
     * Every cycle file read byte by byte (Chronicle's tailer stops early on a truncated file without
     * saying so), and every file a writer moved aside as damaged: each stays a problem until an
     * operator has looked and removed it from the directory.
     */
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

package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Before a writer opens the journal: finds a damaged newest cycle file (truncated, bytes
 * overwritten), moves it aside and keeps its complete records for re-appending.
 *
 * <p>Why move it: Chronicle appends at the position its store header remembers, which on a
 * truncated file lies past the end (measured: the append fails; without assertions it would write
 * into a hole). Why re-append: Chronicle's tailer does not see a file with another name, and the
 * intent index, the stored results and the CLI all read through Chronicle; a copy of the complete
 * prefix in the live cycle keeps every known intent deduplicated on this and every later start.
 *
 * <p>Only the newest cycle file is checked (by its headers, which finds a cut and overwritten
 * headers cheaply) and salvaged: it is the one appends go to, and records re-appended after a later
 * cycle's records would replay out of order. A damaged older file stays in place, is read by
 * Chronicle as far as it can, and is reported by {@code journal verify}, which reads every file.
 *
 * <p>The file is first renamed {@code NAME.salvaging-TS}; once its records are appended and synced
 * it becomes {@code NAME.damaged-TS}. A kill in between leaves the first name, and the next start
 * salvages it again (the prefix may then be in the journal twice; replaying it twice in order ends
 * in the same intent states).
 */
public final class JournalSalvage {

    static final String SALVAGING = ".salvaging-";
    public static final String DAMAGED = ".damaged-";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");

    /** A damaged file moved aside, with what was read from it. */
    public record Moved(Path pending, CycleFileScan.Result scan) {
    }

    private final List<Moved> moved = new ArrayList<>();

    private JournalSalvage() {
    }

    /** Checks the directory and moves the damaged newest file aside; call before Chronicle opens it. */
    static JournalSalvage prepare(Path dir) throws IOException {
        JournalSalvage s = new JournalSalvage();
        for (Path pending : list(dir, p -> p.contains(SALVAGING))) {
            s.moved.add(new Moved(pending, CycleFileScan.full(pending)));
        }
        List<Path> cycles = list(dir, p -> p.endsWith(".cq4"));
        if (!cycles.isEmpty()) {
            // only the newest: older files are never appended to, and reading them all at every start
            // would cost the start time of a large journal; 'journal verify' checks every file
            Path f = cycles.get(cycles.size() - 1);
            if (!CycleFileScan.headers(f).damaged()) {
                return s;
            }
            Path pending = f.resolveSibling(f.getFileName() + SALVAGING + LocalDateTime.now().format(STAMP));
            Files.move(f, pending, StandardCopyOption.ATOMIC_MOVE);
            s.moved.add(new Moved(pending, CycleFileScan.full(pending)));
        }
        return s;
    }

    /** Re-appends the kept records, then gives each moved file its final name. */
    void finish(Journal journal) throws IOException {
        for (Moved m : moved) {
            for (CycleFileScan.Found f : m.scan().records()) {
                journal.append(f.record());
            }
            if (!m.scan().records().isEmpty()) {
                journal.sync();
            }
            Files.move(m.pending(), damagedName(m.pending()), StandardCopyOption.ATOMIC_MOVE);
        }
    }

    static Path damagedName(Path pending) {
        return pending.resolveSibling(pending.getFileName().toString().replace(SALVAGING, DAMAGED));
    }

    /**
     * Every damaged record or region of the moved files, named by the file's final name: none was
     * copied into the live journal, and what any of them said is unknown, so the engine holds calls.
     */
    public List<RecordDamage> damagedRecords() {
        List<RecordDamage> out = new ArrayList<>();
        for (Moved m : moved) {
            String name = damagedName(m.pending()).getFileName().toString();
            for (CycleFileScan.Bad b : m.scan().damagedRecords()) {
                out.add(RecordDamage.inFile(name, b));
            }
        }
        return out;
    }

    /** One loud line per damaged file: which, where, what was kept, where it went. */
    public List<String> report() {
        List<String> lines = new ArrayList<>();
        for (Moved m : moved) {
            lines.add("journal damaged: " + m.scan().describe() + "; those records were recovered and copied into the"
                    + " live journal, the damaged file was moved aside as " + damagedName(m.pending()).getFileName()
                    + " (nothing after the damage could be read); run 'journal verify'");
        }
        return lines;
    }

    private static List<Path> list(Path dir, java.util.function.Predicate<String> name) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> name.test(p.getFileName().toString())).sorted().toList();
        }
    }
}

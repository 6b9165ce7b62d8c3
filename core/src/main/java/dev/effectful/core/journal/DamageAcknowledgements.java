package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A person's word that damaged journal records were looked at: the file {@value #FILE} beside the
 * journal, one line per damaged record ({@link RecordDamage#id()}, when, what). Written by
 * {@code journal verify --acknowledge}, read by the engine at start and again (when the file changed)
 * before it holds a call for damage, so an acknowledgement takes effect without a restart.
 *
 * <p>Why a file and not a journal record: the journal has one writer, the running engine, and the
 * CLI must work beside it; a record would also have to be trusted on a journal known to be damaged.
 * Appending a line is safe beside a reader that reads whole lines only. Owner-only, like the journal.
 */
public final class DamageAcknowledgements {

    public static final String FILE = "damage-acknowledged";

    private DamageAcknowledgements() {
    }

    /** The ids acknowledged so far; empty when nobody acknowledged anything. */
    public static Set<String> read(Path dir) {
        Set<String> ids = new HashSet<>();
        try {
            for (String line : Files.readAllLines(dir.resolve(FILE), StandardCharsets.UTF_8)) {
                int tab = line.indexOf('\t');
                String id = (tab < 0 ? line : line.substring(0, tab)).trim();
                if (!id.isEmpty() && !id.startsWith("#")) {
                    ids.add(id);
                }
            }
        } catch (NoSuchFileException e) {
            // nothing acknowledged
        } catch (IOException | RuntimeException e) {
            // unreadable: nothing counts as acknowledged, which keeps calls held (the safe side)
        }
        return ids;
    }

    /** Last-modified time of the file, or -1 when there is none: lets a reader skip re-reading it. */
    public static long stamp(Path dir) {
        try {
            return Files.getLastModifiedTime(dir.resolve(FILE)).toMillis() ^ Files.size(dir.resolve(FILE));
        } catch (IOException e) {
            return -1;
        }
    }

    /** Appends one line per damage not yet acknowledged; returns how many were added. */
    public static int acknowledge(Path dir, List<RecordDamage> damage, String who) throws IOException {
        Set<String> known = read(dir);
        StringBuilder lines = new StringBuilder();
        int added = 0;
        for (RecordDamage d : damage) {
            if (known.add(d.id())) {
                lines.append(d.id()).append('\t').append(Instant.now()).append('\t').append(who).append('\t')
                        .append(d.describe().replace('\n', ' ').replace('\t', ' ')).append('\n');
                added++;
            }
        }
        if (added > 0) {
            Path f = dir.resolve(FILE);
            Files.write(f, lines.toString().getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
            JournalFiles.ownerOnly(f);
        }
        return added;
    }
}

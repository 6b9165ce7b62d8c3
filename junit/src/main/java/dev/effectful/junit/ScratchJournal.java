package dev.effectful.junit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.core.journal.Journal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.JournalUnavailableException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The kit's journal: one JSON line per record in a file under the test's scratch directory. Chronicle
 * Queue needs JVM flags a plain test run does not have, so the kit keeps the engine's records here
 * instead; the engine above it (keys, rules, classification, probes, deadlines, batches) is the real one.
 *
 * <p>A killed journal drops every later append, as a dead process writes nothing more: the outcome of
 * the call in flight is lost, and a new journal opened over the same file is the restarted process.
 */
final class ScratchJournal implements Journal {

    static final String FILE = "journal.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path dir;
    private final List<JournalRecord> records = new ArrayList<>();
    private final Writer out;
    private volatile boolean dead;

    private ScratchJournal(Path dir, Writer out) {
        this.dir = dir;
        this.out = out;
    }

    /** Opens (or creates) the journal in {@code dir}, reading back what an earlier "process" wrote. */
    static ScratchJournal open(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            Files.createFile(file);
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // Windows: the temp directory is the user's own already
            }
        }
        List<JournalRecord> earlier = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                earlier.add(JSON.readValue(line, JournalRecord.class));
            }
        }
        ScratchJournal j = new ScratchJournal(dir, Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                StandardOpenOption.APPEND));
        j.records.addAll(earlier);
        return j;
    }

    /** From now on nothing is written: the process holding this journal has died. */
    void kill() {
        dead = true;
    }

    boolean dead() {
        return dead;
    }

    @Override
    public synchronized long append(JournalRecord record) {
        if (dead) {
            // the process is gone: the record never reaches the disk, and nobody reads the index it gets
            return -1;
        }
        try {
            out.write(JSON.writeValueAsString(record));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new JournalUnavailableException("scratch journal " + dir + ": " + e.getMessage());
        }
        records.add(record);
        return records.size() - 1;
    }

    @Override
    public void sync() {
        // flushed on every append; a test needs no more
    }

    @Override
    public synchronized Optional<JournalRecord> read(long index) {
        return index < 0 || index >= records.size() ? Optional.empty() : Optional.of(records.get((int) index));
    }

    @Override
    public void replay(RecordVisitor visitor) {
        List<JournalRecord> copy = all();
        for (int i = 0; i < copy.size(); i++) {
            visitor.visit(i, copy.get(i));
        }
    }

    @Override
    public void replayForIndex(RecordVisitor visitor) {
        replay(visitor);
    }

    /** Every record written so far, in order. */
    synchronized List<JournalRecord> all() {
        return List.copyOf(records);
    }

    @Override
    public Path directory() {
        return dir;
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

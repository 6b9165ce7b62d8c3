package dev.effectful.runtime.engine;

import dev.effectful.core.journal.Journal;
import dev.effectful.core.journal.JournalRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A journal in memory, for engine tests that need thousands of calls a second and a crash in one
 * line: {@link #without} is what a process killed before some records would have left behind.
 * No directory, so the engine it serves watches for no resolutions (a test appends them itself).
 */
final class MemoryJournal implements Journal {

    private final List<JournalRecord> records = new ArrayList<>();

    @Override
    public synchronized long append(JournalRecord record) {
        records.add(record);
        return records.size() - 1;
    }

    @Override
    public void sync() {
    }

    @Override
    public synchronized Optional<JournalRecord> read(long index) {
        return index >= 0 && index < records.size() ? Optional.of(records.get((int) index)) : Optional.empty();
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

    @Override
    public Path directory() {
        return null;
    }

    @Override
    public void close() {
    }

    synchronized List<JournalRecord> all() {
        return List.copyOf(records);
    }

    synchronized int size() {
        return records.size();
    }

    /** The records from {@code from} on, in order. */
    synchronized List<JournalRecord> since(int from) {
        return List.copyOf(records.subList(from, records.size()));
    }

    /** A copy holding every record but those {@code lost} matches: what a kill before them would leave. */
    synchronized MemoryJournal without(Predicate<JournalRecord> lost) {
        MemoryJournal copy = new MemoryJournal();
        records.stream().filter(lost.negate()).forEach(copy::append);
        return copy;
    }
}

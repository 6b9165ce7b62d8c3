package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The write-ahead log of tool calls. Appends are durable against a killed process. Everything
 * outside this package uses the journal through this interface (and the read-only views
 * {@link JournalScan}, {@link JournalFollower}); only this package knows it is a Chronicle Queue.
 * The defaults describe a journal without cycle files (the test kit's in-memory one).
 */
public interface Journal extends AutoCloseable {

    /** Appends a record and returns its index; throws {@link JournalUnavailableException} when it cannot. */
    long append(JournalRecord record);

    /** Forces what this thread appended to disk (msync); used for {@code effectful.sync=intent}. */
    void sync();

    /** The record at {@code index}, if it is still in the journal. */
    Optional<JournalRecord> read(long index);

    /** Visits every complete record from the oldest kept, in order. */
    void replay(RecordVisitor visitor);

    /** Like {@link #replay}, with only the fields the intent index needs decoded. */
    void replayForIndex(RecordVisitor visitor);

    Path directory();

    /**
     * Visits, decoded for the index, every record after the one at {@code index}: the tail a
     * snapshot of the index does not cover. Returns how many, or -1 if that record is not in the
     * journal (then nothing was visited and a full replay is needed).
     */
    default long replayForIndexAfter(long index, RecordVisitor visitor) {
        return -1;
    }

    /** The index of the newest record, or -1 for an empty journal. */
    default long lastIndex() {
        return -1;
    }

    /** Every damaged record a replay or read met so far, in index order: never acted on. */
    default List<RecordDamage> damagedRecords() {
        return List.of();
    }

    /** Cycles (one roll period each, one file each) on disk, oldest first; empty for a journal without files. */
    default List<Integer> cycles() {
        return List.of();
    }

    /** The cycle appends go to now: never deleted. */
    default int currentCycle() {
        return Integer.MAX_VALUE;
    }

    /** Epoch millis at which {@code cycle} ends: every record in it is older. */
    default long cycleEndMillis(int cycle) {
        return Long.MAX_VALUE;
    }

    /**
     * Visits every sound record of one cycle, in order, decoded as for the index. Returns false when
     * the cycle holds a damaged record (reported, not visited): its file is evidence a person needs.
     */
    default boolean replayCycle(int cycle, RecordVisitor visitor) {
        return false;
    }

    /**
     * Deletes the file of a past cycle. Refuses the cycle appends go to now and the newest one on
     * disk, which an appender may still hold; false when nothing was deleted.
     */
    default boolean deleteCycle(int cycle) throws IOException {
        return false;
    }

    @Override
    void close();

    /** Receives records with their index during a replay. */
    @FunctionalInterface
    interface RecordVisitor {
        void visit(long index, JournalRecord record);
    }
}

package dev.effectful.runtime.journal;

import java.nio.file.Path;
import java.util.Optional;

/** The write-ahead log of tool calls. Appends are durable against a killed process. */
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

    @Override
    void close();

    /** Receives records with their index during a replay. */
    @FunctionalInterface
    interface RecordVisitor {
        void visit(long index, JournalRecord record);
    }
}

package dev.effectful.agent.e2e;

import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Reads a journal written by a forked application, read-only, as a list of records. */
public record JournalContents(List<JournalRecord> records) {

    public static JournalContents of(Path dir) throws IOException {
        List<JournalRecord> all = new ArrayList<>();
        try (ChronicleJournal j = ChronicleJournal.openReader(dir)) {
            j.replay((i, r) -> all.add(r));
        }
        return new JournalContents(all);
    }

    public List<JournalRecord> of(RecordType type) {
        return records.stream().filter(r -> r.type() == type).toList();
    }

    public List<JournalRecord> where(Predicate<JournalRecord> p) {
        return records.stream().filter(p).toList();
    }

    public List<JournalRecord> forCall(String call) {
        return where(r -> call.equals(r.call()));
    }
}

package dev.effectful.cli;

import dev.effectful.core.journal.JournalRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lists {@code journal unresolved} and {@code journal approvals} print, for the agent's status read
 * ({@code dev.effectful.AgentStatus}) inside the running application: the same scan of this host's
 * journal, handed over as maps of JDK types with the CLI's JSON field names, without the arguments.
 */
public final class StatusLists {

    /**
     * The two lists, or why they could not be read.
     *
     * @param unresolved {@code task, actor, call, kind, intent_key, attempt, state, settles_on_next_call, started}
     *                   (epoch millis), journal order
     * @param approvals  {@code task, actor, call, kind, intent_key, requested} (epoch millis), journal order
     * @param problem    why the journal could not be read; null when it was
     */
    public record Lists(List<Map<String, Object>> unresolved, List<Map<String, Object>> approvals, String problem) {
    }

    private StatusLists() {
    }

    /** Reads {@code journalDir} once, as the CLI does while the agent writes it. */
    public static Lists read(Path journalDir) {
        try (Tracker t = new Tracker(journalDir)) {
            return t.read();
        }
    }

    /**
     * The same lists, read again and again from one journal: the first read scans the whole journal, each later
     * one only the records appended since (as the console follows a journal), so a health check or a metrics
     * scrape on a host that has written millions of records costs what was written since the last look, not the
     * whole journal. A read that fails starts over at the next.
     */
    public static final class Tracker implements AutoCloseable {
        private final Path journalDir;
        private JournalReader reader;
        private JournalIntents table;
        private long lastIndex = -1;
        private long recordsRead;

        public Tracker(Path journalDir) {
            this.journalDir = journalDir;
        }

        /** The lists as the journal stands now. */
        public synchronized Lists read() {
            try {
                if (reader == null) {
                    reader = JournalReader.open(journalDir, JournalReader.DEFAULT_STALL_MILLIS);
                    table = JournalIntents.forJournal(reader);
                }
                if (reader.lastIndex() != lastIndex) {
                    reader.scanSummariesAfter(lastIndex, (i, r) -> {
                        table.accept(i, r);
                        lastIndex = i;
                        recordsRead++;
                    });
                }
                return lists(reader, table);
            } catch (CliException e) {
                close();
                return new Lists(List.of(), List.of(), e.getMessage());
            } catch (RuntimeException e) {
                close();
                return new Lists(List.of(), List.of(), "cannot read journal " + journalDir + ": " + e);
            }
        }

        /** Records read so far, over every read: what a later read adds is what was appended since. */
        synchronized long recordsRead() {
            return recordsRead;
        }

        @Override
        public synchronized void close() {
            if (reader != null) {
                reader.close();
            }
            reader = null;
            table = null;
            lastIndex = -1;
        }
    }

    private static Lists lists(JournalReader reader, JournalIntents table) throws CliException {
        List<Map<String, Object>> unresolved = new ArrayList<>();
        List<Map<String, Object>> approvals = new ArrayList<>();
        for (UnresolvedCommand.Row row : UnresolvedCommand.rows(reader, table)) {
            JournalIntents.Intent i = row.intent();
            Map<String, Object> m = base(i);
            m.put("attempt", i.attempt());
            m.put("state", row.state());
            m.put("settles_on_next_call", i.settles());
            JournalRecord r = row.latestIntent();
            m.put("started", r == null ? 0L : r.started());
            unresolved.add(m);
        }
        for (ApprovalsCommand.Pending p : ApprovalsCommand.pending(reader, table)) {
            Map<String, Object> m = base(p.intent());
            m.put("requested", p.request() == null ? 0L : p.request().started());
            approvals.add(m);
        }
        return new Lists(unresolved, approvals, null);
    }

    private static Map<String, Object> base(JournalIntents.Intent i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("task", i.task());
        m.put("actor", i.actor() == null ? "" : i.actor());
        m.put("call", i.call());
        m.put("kind", i.kind());
        m.put("intent_key", i.key());
        return m;
    }
}

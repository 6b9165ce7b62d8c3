package dev.effectful.agent.installer;

import dev.effectful.cli.StatusLists;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.JournalAccess;
import dev.effectful.core.reentry.IntentStore;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The agent's side of {@code dev.effectful.AgentStatus} (through {@code bridge.StatusReport}): the engine's
 * journal and store as a health check sees them, and the unresolved and waiting intents as the CLI lists
 * them. JDK types only. A snapshot is kept for {@link #KEEP_MILLIS}, so frequent readers (a health check, a
 * metrics scrape, the actuator endpoint) share one read; and the lists follow the journal, so a read costs the
 * records written since the last one, not a scan of a journal that may hold millions.
 */
final class StatusSource implements Supplier<Map<String, Object>> {

    static final long KEEP_MILLIS = 1000;

    private final EngineStarter starter;
    private Map<String, Object> kept;
    private long keptAt;
    private long keptWritten = -1;
    /** Follows the engine's journal: each read after the first reads only what was appended since. */
    private StatusLists.Tracker follower;
    private Path followed;

    StatusSource(EngineStarter starter) {
        this.starter = starter;
    }

    @Override
    public synchronized Map<String, Object> get() {
        long now = System.nanoTime();
        // kept for a second so health, meters and the endpoint share one scan, but never past a write of
        // this engine: a health check right after a held call must count it
        CallEngine engine = starter.ready();
        long written = engine == null ? -1 : engine.journalAccess().foldedCount();
        if (kept == null || written != keptWritten || now - keptAt >= KEEP_MILLIS * 1_000_000L) {
            kept = read();
            keptAt = System.nanoTime();
            keptWritten = written;
        }
        return kept;
    }

    private Map<String, Object> read() {
        Map<String, Object> m = new LinkedHashMap<>();
        CallEngine engine = starter.ready();
        m.put("engine_running", engine != null);
        if (engine == null) {
            // someone asks after the engine, so the application is up: the start waits for nothing more
            starter.startInBackground();
            notRunning().ifPresent(why -> m.put("journal_problem", why));
            return m;
        }
        Path dir = engine.config().journalDir().toAbsolutePath().normalize();
        m.put("journal_dir", dir.toString());
        JournalAccess journal = engine.journalAccess();
        journal.problem().ifPresent(why -> m.put("journal_problem", why));
        m.put("bytes_before_refusal", journal.bytesBeforeRefusal());
        IntentStore store = engine.store();
        m.put("store", store.describe());
        store.problem().ifPresent(why -> m.put("store_problem", why));
        // Chronicle finds some of its classes through the context loader: the caller's (the application's) cannot see them
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(StatusSource.class.getClassLoader());
        try {
            if (follower == null || !dir.equals(followed)) {
                if (follower != null) {
                    follower.close();
                }
                follower = new StatusLists.Tracker(dir);
                followed = dir;
            }
            StatusLists.Lists lists = follower.read();
            m.put("unresolved", List.copyOf(lists.unresolved()));
            m.put("approvals", List.copyOf(lists.approvals()));
            if (lists.problem() != null) {
                m.put("lists_problem", lists.problem());
            }
        } finally {
            t.setContextClassLoader(before);
        }
        return m;
    }

    /** Why there is no engine, when that refuses calls: a configuration error, a held journal, a failed start. */
    private Optional<String> notRunning() {
        Optional<String> refusal = starter.refusal().map(p -> p.message());
        if (refusal.isPresent()) {
            return refusal;
        }
        return starter.failure().map(f -> "the effectful engine failed to start (" + f + ")");
    }
}

package dev.effectful.runtime.reentry;

import dev.effectful.runtime.journal.JournalRecord;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The default store: an in-memory map from intent key to state, rebuilt from the local journal. */
public final class LocalIntentIndex implements IntentStore {

    private final ConcurrentHashMap<String, IntentState> states = new ConcurrentHashMap<>();

    @Override
    public Optional<IntentState> get(String intentKey) {
        return Optional.ofNullable(states.get(intentKey));
    }

    /** One process decides alone: the caller's in-process claim is the whole claim. */
    @Override
    public Decision decideAndClaim(String intentKey, IntentMeta meta, Rule rule, long budgetNanos) {
        return rule.decide(states.get(intentKey), System.currentTimeMillis());
    }

    @Override
    public void apply(long index, JournalRecord record) {
        if (record.intentKey() == null) {
            return;
        }
        if (StateTransitions.agesOnly(record)) {
            states.computeIfPresent(record.intentKey(), (k, s) -> StateTransitions.next(s, index, record));
            return;
        }
        states.compute(record.intentKey(), (k, s) -> StateTransitions.next(s, index, record));
    }

    @Override
    public int forgetOlderThan(long cutoffMillis) {
        int before = states.size();
        states.entrySet().removeIf(e -> e.getValue().lastMillis() < cutoffMillis && !e.getValue().isUnresolved());
        return before - states.size();
    }

    @Override
    public int size() {
        return states.size();
    }

    @Override
    public long unresolvedCount() {
        return states.values().stream().filter(IntentState::isUnresolved).count();
    }

    /** Replaces whatever is here by the snapshot in {@code journalDir}; empty if there is none usable. */
    public Optional<IndexSnapshot.Covers> loadSnapshot(Path journalDir) {
        states.clear();
        try {
            return IndexSnapshot.read(journalDir, states);
        } catch (IOException | RuntimeException e) {
            states.clear();
            return Optional.empty();
        }
    }

    /** Writes this index as covering the journal up to {@code lastIndex} (see the engine's checkpoints). */
    public void writeSnapshot(Path journalDir, long lastIndex, String lastKey) throws IOException {
        IndexSnapshot.write(journalDir, lastIndex, lastKey, states);
    }

    /** Forgets everything: a snapshot turned out not to match the journal. */
    public void clear() {
        states.clear();
    }
}

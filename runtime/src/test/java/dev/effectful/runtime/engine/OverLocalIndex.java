package dev.effectful.runtime.engine;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.LocalIntentIndex;

import java.util.Optional;

/**
 * A test's intent store over the real local index: each of the store's own methods is the index's (its
 * default methods stay the interface's); a test's store overrides what it changes.
 */
abstract class OverLocalIndex implements IntentStore {

    protected final LocalIntentIndex index;

    OverLocalIndex(LocalIntentIndex index) {
        this.index = index;
    }

    @Override
    public Optional<IntentState> get(String intentKey) {
        return index.get(intentKey);
    }

    @Override
    public Decision decideAndClaim(String intentKey, IntentMeta meta, Rule rule, long budgetNanos) {
        return index.decideAndClaim(intentKey, meta, rule, budgetNanos);
    }

    @Override
    public void apply(long at, JournalRecord record) {
        index.apply(at, record);
    }

    @Override
    public int forgetOlderThan(long cutoffMillis) {
        return index.forgetOlderThan(cutoffMillis);
    }

    @Override
    public int size() {
        return index.size();
    }
}

package dev.effectful.runtime.engine;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.LocalIntentIndex;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local intent index, deciding at a time the test moves: a Retry-After passes without waiting
 * for it. Everything else is the real index the engine uses.
 */
final class ClockedStore implements dev.effectful.core.reentry.IntentStore {

    private final LocalIntentIndex index = new LocalIntentIndex();
    private final AtomicLong aheadMillis = new AtomicLong();

    void advance(Duration d) {
        aheadMillis.addAndGet(d.toMillis());
    }

    @Override
    public Optional<IntentState> get(String intentKey) {
        return index.get(intentKey);
    }

    @Override
    public Decision decideAndClaim(String intentKey, IntentMeta meta, Rule rule, long budgetNanos) {
        return rule.decide(index.get(intentKey).orElse(null), System.currentTimeMillis() + aheadMillis.get());
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

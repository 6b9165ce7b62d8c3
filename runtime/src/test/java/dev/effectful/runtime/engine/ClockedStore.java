package dev.effectful.runtime.engine;

import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.LocalIntentIndex;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local intent index, deciding at a time the test moves: a Retry-After passes without waiting
 * for it. Everything else is the real index the engine uses.
 */
final class ClockedStore extends OverLocalIndex {

    private final AtomicLong aheadMillis = new AtomicLong();

    ClockedStore() {
        super(new LocalIntentIndex());
    }

    void advance(Duration d) {
        aheadMillis.addAndGet(d.toMillis());
    }

    /** Decides as the index would at the moved time; the rest is the index's. */
    @Override
    public Decision decideAndClaim(String intentKey, IntentMeta meta, Rule rule, long budgetNanos) {
        return rule.decide(index.get(intentKey).orElse(null), System.currentTimeMillis() + aheadMillis.get());
    }
}

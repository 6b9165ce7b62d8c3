package dev.effectful.core.reentry;

import dev.effectful.core.journal.JournalRecord;

import java.util.Optional;

/**
 * Where the latest state of each intent key is kept. The local implementation is an in-memory
 * index rebuilt from the journal at start; a shared store lets a task move between hosts.
 *
 * <p>Whatever the store, every record also goes to the local journal first: the journal is each
 * host's write-ahead log, the store is where decisions are taken.
 */
public interface IntentStore {

    /** Who acts on what, written with a shared claim so that a person can read the row. */
    record IntentMeta(String task, String call, String kind) {
    }

    /** The re-entry table applied to a key's state ({@code null}: never seen); see {@link ReentryRules}. */
    @FunctionalInterface
    interface Rule {
        Decision decide(IntentState state, long nowMillis);
    }

    /** This process's own view of a key, never a remote round trip (READ calls number attempts from it). */
    Optional<IntentState> get(String intentKey);

    /**
     * Decides what a call of this key does and, when the decision is to run or to probe, makes this
     * process the key's only runner, atomically for everyone sharing the store. The caller already
     * holds the key in this process (no concurrent call of it here). Everything is bounded by
     * {@code budgetNanos} (what is left of the task's budget): asking the store, and waiting while
     * another process holds the key (then deciding again); {@link Decision.Elsewhere} means the
     * budget ran out while it still held it.
     *
     * @throws StoreUnavailableException the store could not be asked in time: the call must not run
     */
    Decision decideAndClaim(String intentKey, IntentMeta meta, Rule rule, long budgetNanos);

    /** A claimed attempt that will not run after all (its intent could not be journaled). */
    default void abandon(String intentKey, int attempt) {
    }

    /** Folds one journal record (at {@code index}) into the state of its key. */
    void apply(long index, JournalRecord record);

    /** Forgets keys whose latest record is older than {@code cutoffMillis}, except unresolved ones. */
    int forgetOlderThan(long cutoffMillis);

    int size();

    /**
     * How many intents wait for a person or for their outcome (the {@code effectful.unresolved}
     * gauge); -1 when this store cannot tell cheaply. Counted when asked: metrics read it rarely.
     */
    default long unresolvedCount() {
        return -1;
    }

    /**
     * Why this store cannot be asked now (a shared store's database is unreachable), for a health check;
     * empty when it can, or when this store cannot tell without a round trip of its own.
     */
    default Optional<String> problem() {
        return Optional.empty();
    }

    /** Named in refusals and logs: {@code local}, or the shared store and where it is. */
    default String describe() {
        return "local journal index";
    }
}

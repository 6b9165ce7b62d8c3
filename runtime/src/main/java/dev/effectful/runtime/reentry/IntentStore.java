package dev.effectful.runtime.reentry;

import dev.effectful.runtime.journal.JournalRecord;

import java.util.Optional;

/**
 * Where the latest state of each intent key is kept. The local implementation is an in-memory
 * index rebuilt from the journal at start; a shared store lets a task move between hosts.
 */
public interface IntentStore {

    Optional<IntentState> get(String intentKey);

    /** Folds one journal record (at {@code index}) into the state of its key. */
    void apply(long index, JournalRecord record);

    /** Forgets keys whose latest record is older than {@code cutoffMillis}, except unresolved ones. */
    int forgetOlderThan(long cutoffMillis);

    int size();
}

package dev.effectful.store.postgres;

import dev.effectful.runtime.reentry.Phase;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The store's phase column in SQL, derived from {@link Phase} so the queries never keep their own list:
 * a phase added to the journal's state machine is counted as unresolved here exactly when
 * {@link Phase#unresolved()} says so.
 */
final class PhaseWords {

    /** {@code ('intended', 'unknown', 'probe_failed')}: the phases whose effect nobody knows. */
    static final String UNRESOLVED = Arrays.stream(Phase.values()).filter(Phase::unresolved)
            .map(p -> "'" + p.word() + "'").collect(Collectors.joining(", ", "(", ")"));

    private PhaseWords() {
    }
}

package dev.effectful.store.postgres;

import dev.effectful.core.reentry.Phase;

import java.util.Arrays;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The store's phase column in SQL, derived from {@link Phase} so the queries never spell a phase
 * themselves: the column holds {@link Phase#word()}, and a phase added to the journal's state machine is
 * counted as unresolved or settled ok here exactly when {@link Phase#unresolved()} or
 * {@link Phase#settledOk()} says so. Each constant is a quoted SQL literal, or a parenthesised list of
 * them for {@code IN}; {@code PhaseWordsTest} checks every phase against them.
 */
final class PhaseWords {

    /** {@code 'intended'}: a claim to run, under a lease. */
    static final String INTENDED = literal(Phase.INTENDED);

    /** {@code 'retryable'}: a claim given up before the body ran. */
    static final String RETRYABLE = literal(Phase.RETRYABLE);

    /** {@code 'awaiting_approval'}: nothing ran; a person decides. */
    static final String AWAITING_APPROVAL = literal(Phase.AWAITING_APPROVAL);

    /** {@code ('ok', 'resolved_applied')}: the phases whose stored result answers every later call. */
    static final String SETTLED_OK = list(Phase::settledOk);

    /** {@code ('intended', 'unknown', 'probe_failed')}: the phases whose effect nobody knows. */
    static final String UNRESOLVED = list(Phase::unresolved);

    private PhaseWords() {
    }

    /** A phase's word as an SQL string literal (the words are lower-case letters and underscores only). */
    static String literal(Phase p) {
        return "'" + p.word() + "'";
    }

    private static String list(Predicate<Phase> which) {
        return Arrays.stream(Phase.values()).filter(which).map(PhaseWords::literal)
                .collect(Collectors.joining(", ", "(", ")"));
    }
}

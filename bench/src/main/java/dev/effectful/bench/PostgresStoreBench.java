package dev.effectful.bench;

/**
 * Hook for {@code per_call.effectful_postgres}: the same new-intent call as
 * {@link EffectfulBench#newIntent} with the intent index kept in PostgreSQL instead of in memory.
 *
 * <p>Not implemented: there is no PostgreSQL store yet. When there is, add a {@code @Benchmark}
 * method here doing exactly what {@code EffectfulBench.newIntent} does (reuse
 * {@link EffectfulBench.Caller}), and one line in {@link RunAll#comparators} naming it
 * {@code effectful_postgres} with the agent arguments that select the store and a database per fork
 * (a throwaway database or schema, dropped at the end, like the journal directories).
 */
public final class PostgresStoreBench {

    private PostgresStoreBench() {
    }
}

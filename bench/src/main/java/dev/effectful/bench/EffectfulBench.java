package dev.effectful.bench;

import dev.effectful.Task;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;

/**
 * Effectful through the real agent. RunAll forks these with {@code -javaagent:effectful-agent.jar}
 * and a fresh {@code effectful.journal.dir} per fork; {@code effectful.sync} decides whether the
 * fork measures {@code effectful} or {@code effectful_sync}. {@code effectful_postgres} and
 * {@code effectful_postgres_nofsync} run {@link #newIntent} with agent arguments selecting the
 * PostgreSQL store, one database per fork on a server of the run's own ({@link PgServer}).
 */
public class EffectfulBench {

    /** Per benchmark thread: an open task (as an agent loop would hold) and a counter for fresh keys. */
    @State(Scope.Thread)
    public static class Caller {
        final MailTools tools = new MailTools();
        final String prefix = Callers.threadPrefix();
        final String repeated = prefix + "repeat@example.com";
        long n;
        Task task;

        @Setup(Level.Trial)
        public void checkAgent() {
            boolean active;
            try (Task t = Task.open("bench-check-" + prefix, Duration.ofMinutes(1))) {
                active = tools.agentActive();
            }
            if (!active) {
                throw new IllegalStateException("the Effectful agent did not rewrite MailTools: this fork would measure"
                        + " plain calls; run through bench/run.sh");
            }
        }

        @Setup(Level.Iteration)
        public void openTask() {
            // same task id each iteration, so the repeated key stays the same intent
            task = Task.open("bench-" + prefix, Duration.ofHours(6));
            tools.sendEmail(repeated, MailTools.SUBJECT, 3);
        }

        @TearDown(Level.Iteration)
        public void closeTask() {
            task.close();
        }
    }

    /** A new SEND intent per call: intent record, body, outcome record. */
    @Benchmark
    public String newIntent(Caller c) {
        return c.tools.sendEmail(Callers.recipient(c.prefix, c.n++), MailTools.SUBJECT, 3);
    }

    /** The same intent again: the stored original result comes back, the body does not run. */
    @Benchmark
    public String dedup(Caller c) {
        return c.tools.sendEmail(c.repeated, MailTools.SUBJECT, 3);
    }

    /** A READ tool: always runs, still journaled and classified. */
    @Benchmark
    public String read(Caller c) {
        return c.tools.getPrice("sku-42");
    }
}

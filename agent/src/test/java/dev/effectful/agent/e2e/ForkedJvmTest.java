package dev.effectful.agent.e2e;

import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The frame of an end-to-end test that forks JVMs with the agent (its tests {@link EveryJdk}, as a rule): the
 * test's temporary directory, and the forked JVM with the test's journal and a home of its own under the
 * temporary directory ({@code HOME} and {@code user.home}), so nothing of the user's leaks in.
 */
public abstract class ForkedJvmTest {

    /** The test's directory: journals, homes, the forked JVMs' logs. */
    @TempDir
    protected Path tmp;

    /** The test's journal when it has one: {@code tmp/journal}. */
    protected final Path journal() {
        return tmp.resolve("journal");
    }

    /** A JVM of {@code jdk} with the agent, its journal in {@code journal}, its home in {@code tmp/home}. */
    protected final ForkedApp forked(Jdk jdk, Path journal) {
        return ForkedApp.jdk(jdk)
                .sysprop("effectful.journal.dir", journal)
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"));
    }

    /**
     * {@code main} run to its end (within 2 minutes) on {@code jdk}, its journal the test's ({@link #journal}), its
     * effects in {@code ledger}, its logs in {@code tmp/logs}.
     */
    protected final ForkedApp ran(Jdk jdk, EffectLedger ledger, Class<?> main, String... args) throws Exception {
        return forked(jdk, journal()).main(main, args).sysprop("ledger", ledger.url())
                .run(tmp.resolve("logs"), Duration.ofSeconds(120));
    }
}

package dev.effectful.it.support;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.core.journal.JournalRecord;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The frame of a framework test: the framework's application forked with the agent, wired to the
 * loopback service its tools' effects land in (a subclass owns that service: it lives in the test JVM so
 * what it counts outlives a kill -9, and no test passes on the agent's word alone), with a journal and a
 * home of its own under the test's temporary directory.
 */
public abstract class ForkedAppTest {

    /** The test's directory: the journal, the forked JVMs' logs and their {@code HOME}. */
    @TempDir
    protected Path tmp;

    /** The URL of the loopback service, given to the application as the system property {@code ledger}. */
    protected abstract String ledgerUrl();

    /**
     * {@code main} in a forked JVM of this JDK with the agent: the service's URL as {@code ledger}, the
     * journal in {@code tmp/journal}, {@code HOME} in {@code tmp/home} (so nothing of the user's leaks in).
     */
    protected final ForkedApp forked(Class<?> main, String... args) {
        return ForkedApp.jdk(Jdk.current()).main(main, args)
                .sysprop("ledger", ledgerUrl())
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .env("HOME", tmp.resolve("home").toString());
    }

    /** The journal's records of calls of {@code call}. */
    protected final List<JournalRecord> journaled(String call) throws IOException {
        return JournalContents.of(tmp.resolve("journal")).forCall(call);
    }
}

package dev.effectful.cli;

import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.EngineFactory;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.effectful.cli.SimultaneousVerdictsTest.K_APPROVAL;
import static dev.effectful.cli.SimultaneousVerdictsTest.ROUNDS;
import static dev.effectful.cli.SimultaneousVerdictsTest.exactlyOne;
import static dev.effectful.cli.SimultaneousVerdictsTest.shell;
import static dev.effectful.cli.SimultaneousVerdictsTest.together;
import static dev.effectful.cli.TestJournals.K_CRASH;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SimultaneousVerdictsTest}'s races while an agent writes the journal: a real engine holds the writer
 * lock and takes verdicts through its request directory, so both sides go the live hand-over. Exactly one is
 * recorded by the engine, the other is told which verdict stands, and no request is left for it to refuse.
 */
class LiveWriterVerdictsTest {

    @TempDir
    Path tmp;

    private static CallEngine writer(Path dir) {
        CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + dir));
        assertThat(JournalLock.isHeld(dir)).as("the engine writes the journal").isTrue();
        return engine;
    }

    /** {@code ROUNDS} rounds of a race, each on a fresh journal of the scenario with an engine writing it, closed after. */
    private void roundsWithAWriter(String prefix, SimultaneousVerdictsTest.Round race) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Path dir = SimultaneousVerdictsTest.journal(tmp.resolve(prefix + "-" + round));
            CallEngine engine = writer(dir);
            try {
                race.run(round, dir);
            } finally {
                engine.close();
            }
        }
    }

    @Test
    void twoShellsApprovingOrDenyingAtOnceGetOneVerdictFromTheWriter() throws Exception {
        roundsWithAWriter("ad", (round, dir) -> {
            String second = round % 2 == 0 ? "approve" : "deny";
            List<SimultaneousVerdictsTest.Answer> answers = together(
                    shell(dir, "approve", K_APPROVAL, "--note", "ok", "--by", "ann"),
                    shell(dir, second, K_APPROVAL, "--note", "second look", "--by", "bob"));
            exactlyOne(round, dir, K_APPROVAL, RecordType.APPROVAL, answers, SimultaneousVerdictsTest::approver);
        });
    }

    @Test
    void twoShellsResolvingAtOnceGetOneResolutionFromTheWriter() throws Exception {
        roundsWithAWriter("rr", (round, dir) -> {
            List<SimultaneousVerdictsTest.Answer> answers = together(
                    shell(dir, "resolve", K_CRASH, "--applied", "yes", "--note", "in the shop"),
                    shell(dir, "resolve", K_CRASH, "--applied", "no", "--note", "not in the shop"));
            exactlyOne(round, dir, K_CRASH, RecordType.RESOLUTION, answers, SimultaneousVerdictsTest::resolver);
        });
    }

    @Test
    void aConsoleTabAndAShellAtOnceGetOneVerdictFromTheWriter() throws Exception {
        roundsWithAWriter("mixed", (round, dir) -> {
            try (TestConsole console = TestConsole.start(dir, false)) {
                SimultaneousVerdictsTest.Tab tab = SimultaneousVerdictsTest.Tab.open(console, K_APPROVAL);
                String cookie = tab.cookie();
                String csrf = tab.csrf();
                List<SimultaneousVerdictsTest.Answer> answers = together(
                        () -> SimultaneousVerdictsTest.Answer.of(console.post("/intent/" + K_APPROVAL + "/deny", cookie,
                                "csrf=" + csrf + "&note=no&person=Ann")),
                        shell(dir, "approve", K_APPROVAL, "--note", "fine", "--by", "bob"));
                exactlyOne(round, dir, K_APPROVAL, RecordType.APPROVAL, answers, SimultaneousVerdictsTest::approver);
            }
        });
    }
}

package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleServer;
import dev.effectful.core.journal.Verdict;
import dev.effectful.core.reentry.Phase;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journal's closed words and the CLI's: each test goes over every constant of the journal's enum, so
 * a word added there without its followers here fails the build, naming the word.
 */
class VocabularyFollowersTest {

    @Test
    void everyPhaseHasExactlyOneCliStateWithItsOwnWord() {
        Set<String> words = new HashSet<>();
        for (Phase p : Phase.values()) {
            JournalIntents.State s = JournalIntents.State.of(p);
            assertThat(s.phase).as("%s", p).isEqualTo(p);
            assertThat(s.unresolved).as("%s: unresolved is the journal's rule", p).isEqualTo(p.unresolved());
            assertThat(s.settledOk()).as("%s: settled ok is the journal's rule", p).isEqualTo(p.settledOk());
            assertThat(words.add(s.word)).as("%s: its word %s is not another state's", p, s.word).isTrue();
        }
        assertThat(JournalIntents.State.values()).as("no state without a phase").hasSameSizeAs(Phase.values());
        assertThat(words).as("in-flight is a reader's word, never a phase's").doesNotContain(JournalIntents.IN_FLIGHT);
        assertThat(JournalIntents.inFlight(JournalIntents.IN_FLIGHT)).isTrue();
        assertThat(JournalIntents.inFlight(JournalIntents.State.NO_OUTCOME.word)).isFalse();
    }

    @Test
    void everyVerdictHasItsPhaseItsCliStateAndForAPersonsOneItsCommandAndConsoleAction() throws Exception {
        Map<String, Verdict> commands = new HashMap<>();
        for (Class<?> c : JournalCli.class.getAnnotation(Command.class).subcommands()) {
            if (ApprovalVerdict.class.isAssignableFrom(c)) {
                var ctor = c.getDeclaredConstructor();
                ctor.setAccessible(true);
                commands.put(c.getAnnotation(Command.class).name(), ((ApprovalVerdict) ctor.newInstance()).verdict());
            }
        }
        for (Verdict v : Verdict.values()) {
            assertThat(Verdict.fromWord(v.word())).as("%s", v).isEqualTo(v);
            Phase after = Phase.after(v);
            // the shared store's phase column (PhaseWords, PostgresJournalView.approve) and the CLI's
            // state both print the verdict's own word
            assertThat(after.word()).as("%s: the store's phase word", v).isEqualTo(v.word());
            assertThat(after.verdict()).as("%s", v).isEqualTo(v);
            assertThat(after.unresolved()).as("%s: a verdict settles the question", v).isFalse();
            assertThat(JournalIntents.State.of(after).word).as("%s: the CLI's state word", v).isEqualTo(v.word());
            String action = ConsoleServer.action(v);
            if (v.byPerson()) {
                assertThat(action).as("%s: a person's verdict has a console action", v).isNotNull();
                assertThat(ConsoleServer.verdictOf(action)).as("%s", v).isEqualTo(v);
                assertThat(commands).as("%s: and a CLI command of the same name", v).containsEntry(action, v);
            } else {
                assertThat(action).as("%s: the engine's alone, nobody's to give", v).isNull();
                assertThat(commands).as("%s", v).doesNotContainValue(v);
            }
        }
        assertThat(commands).hasSize((int) Arrays.stream(Verdict.values()).filter(Verdict::byPerson).count());
        assertThat(ConsoleServer.verdictOf("resolve")).isNull();
    }
}

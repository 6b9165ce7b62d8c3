package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.FirstCallApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.RecordType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's own start-up is not charged to the first task. A fresh JVM, no journal, and
 * main's first statement a task of 3 s calling a tool that needs 2.5 s of it: before, the wait for the
 * engine (and for Byte Buddy to rewrite the tool's class) came out of the task's budget and the call was
 * refused on any cold JVM. It must run, with its intent journaled before its effect.
 */
class FirstCallIT extends ForkedJvmTest {

    @EveryJdk
    void theFirstTaskOfAFreshJvmIsNotRefusedForTheAgentsStartUp(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger().watchJournal(journal)) {
            ForkedApp app = forked(jdk, journal).main(FirstCallApp.class).sysprop("ledger", ledger.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(90));
            Map<String, String> r = app.results();

            assertThat(r.get("first")).as("stderr: %s", app.stderr()).startsWith("done:first_send:");
            JournalContents j = JournalContents.of(journal);
            List<JournalRecord> intents = j.where(x -> x.type() == RecordType.INTENT && "t-first".equals(x.task()));
            assertThat(intents).hasSize(1);
            JournalRecord intent = intents.get(0);
            // the budget the call saw is the task's, less only what the task itself spent
            assertThat(intent.budgetLeftS()).isEqualTo(2L);
            assertThat(ledger.effects("first_send", intent.intentKey())).isEqualTo(1);
            assertThat(ledger.intentSeenBeforeEffect(intent.intentKey())).isTrue();
            assertThat(j.forCall("first_send")).noneMatch(x -> x.type() == RecordType.REFUSED)
                    .filteredOn(x -> x.type() == RecordType.OUTCOME).singleElement()
                    .satisfies(x -> assertThat(x.outcome()).isEqualTo(OutcomeWord.OK));
        }
    }
}

package dev.effectful.it.langchain4j;

import dev.effectful.agent.e2e.CliRun;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.it.langchain4j.app.AssistantApp;
import dev.effectful.it.support.FrameworkTaskScenario;
import dev.effectful.core.journal.JournalRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LangChain4j: an application on AiServices with the agent as its only flag and no
 * {@code Task.open}. Each AI-service invocation runs in a task taken from what LangChain4j already
 * knows (the {@code @MemoryId}, the {@code @UserName}), so the scripted model's rephrased retry of a
 * charge whose answer was lost is probed, never run again. The loopback ledger counts the charges.
 */
class AiServiceTaskIT extends FrameworkTaskScenario {

    @Test
    void theMemoryIdIsTheTaskSoARephrasedRetryIsProbedNotRepeated() throws Exception {
        Map<String, String> r = runWithRephrasedRetry("conv-1");
        // the first charge ran on LangChain4j's tool executor (two tool calls in one turn), in the conversation's task
        assertThat(r.get("charge_bodies")).startsWith("conv-1@").doesNotContain(",").doesNotContain("@main");
        assertThat(r.get("lookups")).startsWith("conv-1@").doesNotContain("@main");
        assertThat(r.get("task_after")).as("the invocation's task closes with it").isEqualTo("none");

        assertJournaledInTheTask("conv-1");

        CliRun tasks = CliRun.journal(tmp.resolve("journal"), "tasks");
        assertThat(tasks.exitCode()).as(tasks.toString()).isZero();
        assertThat(tasks.stdout()).contains("conv-1").doesNotContain("langchain4j-");
    }

    @Test
    void afterAKillNineTheRestartedConversationProbesInsteadOfChargingAgain() throws Exception {
        assertAKillNineThenTheSameTaskProbes("conv-2");
    }

    @Test
    void withoutAMemoryIdEachInvocationIsATaskOfItsOwnThatStillCatchesItsRetry() throws Exception {
        ForkedApp app = assistant("nomemory", null).run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();

        List<JournalRecord> charges = journaled(CHARGE);
        Set<String> tasks = charges.stream().map(JournalRecord::task).collect(Collectors.toSet());
        assertThat(tasks).hasSize(2).allSatisfy(t -> assertThat(t).startsWith("langchain4j-"));
        // the same charge asked in two invocations is two acts (no conversation ties them together)...
        assertThat(ledger.effects("charge", "o-9")).isEqualTo(2);
        assertThat(r.get("charge_bodies").split(",")).hasSize(2);
        // ...but inside each, the rephrased retry of the lost answer was probed, not run
        for (String task : tasks) {
            List<JournalRecord> mine = charges.stream().filter(c -> c.task().equals(task)).toList();
            assertOneIntentAndAFoundProbe(mine);
        }
        assertThat(r.get("answer1")).isEqualTo("charge o-9: done:charge:o-9");
        assertThat(r.get("answer2")).isEqualTo("charge o-9: done:charge:o-9");
    }

    @Test
    void anExplicitTaskOpenAroundTheCallWins() throws Exception {
        ForkedApp app = assistant("explicit", "conv-4").run(tmp.resolve("logs"), Duration.ofSeconds(120));

        assertChargedIn("order-77", "ops");
        assertThat(ledger.effects("charge", "o-4")).isEqualTo(1);
        assertThat(app.results().get("charge_bodies")).startsWith("order-77@").doesNotContain(",");
    }

    @Test
    void theUserNameIsTheActor() throws Exception {
        ForkedApp app = assistant("user", "conv-5").run(tmp.resolve("logs"), Duration.ofSeconds(120));

        assertChargedIn("conv-5", "ada");
        assertThat(ledger.effects("charge", "o-5")).isEqualTo(1);
        assertThat(app.results().get("answer")).isEqualTo("charge o-5: done:charge:o-5");
    }

    /** The charges the journal holds: some, every one in {@code task}, every one by {@code actor}. */
    private void assertChargedIn(String task, String actor) throws Exception {
        List<JournalRecord> charges = journaled(CHARGE);
        assertThat(charges).isNotEmpty().extracting(JournalRecord::task).containsOnly(task);
        assertThat(charges).extracting(JournalRecord::actor).containsOnly(actor);
    }

    /**
     * What the README says of streaming, pinned: the TokenStream method returns before the model runs,
     * so the tools run outside any task and a rephrased retry is NOT caught. If this starts failing
     * because streaming got a task, update README "Frameworks: tasks without code".
     */
    @Test
    void aStreamingInvocationsToolsRunOutsideAnyTask() throws Exception {
        ForkedApp app = assistant("streaming", "conv-6").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();

        assertThat(r.get("charge_bodies").split(",")).hasSize(2).allSatisfy(b -> assertThat(b).startsWith("none@"));
        assertThat(ledger.effects("charge", "o-6")).as("each call its own implicit task: not deduplicated").isEqualTo(2);
        List<JournalRecord> charges = journaled(CHARGE);
        assertThat(charges).isNotEmpty().noneMatch(c -> "conv-6".equals(c.task()));
    }

    /**
     * The scenario's runs: the {@code @MemoryId} is the conversation; the model asks for a lookup beside
     * the charge, so both tool calls run on LangChain4j's executor.
     */
    @Override
    protected ForkedApp app(String conversation) {
        return assistant("memory", conversation);
    }

    /** Across a kill -9, the plain sequential tool loop: the restart's question is only where the task comes from. */
    @Override
    protected ForkedApp appToKill(String conversation) {
        return assistant("crash", conversation);
    }

    @Override
    protected ForkedApp appAfterKill(String conversation) {
        return assistant("resume", conversation);
    }

    private ForkedApp assistant(String mode, String conversation) {
        return conversation == null ? forked(AssistantApp.class, mode) : forked(AssistantApp.class, mode, conversation);
    }
}

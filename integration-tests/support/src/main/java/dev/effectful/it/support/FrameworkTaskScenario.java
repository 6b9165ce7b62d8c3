package dev.effectful.it.support;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scenario every framework that names its own task runs: a shop application whose scripted model
 * charges order {@code o-7}, loses the answer, and retries the charge in other words. With the agent as
 * the only flag and no {@code Task.open}, the retry must land in the framework's task (its session, its
 * thread id, its run id) and be probed, never charged again: in the same process, and in a new one
 * after a kill -9. A framework's test supplies its application ({@link #app}) and its own assertions
 * (where the body ran, the actor); its {@code @Test} methods call the bodies here.
 *
 * <p>The application's contract: system properties {@code ledger}, {@code lose.ms} (how long the lost
 * answer is waited for) and {@code phrasing} (the model's first wording); {@code RESULT} lines
 * {@code answer}, {@code charge_bodies} ({@code task@thread}, comma-separated) and {@code task_after}.
 */
public abstract class FrameworkTaskScenario extends LedgerForkTest {

    /** The tool the scripted model calls. */
    protected static final String CHARGE = "charge_card";
    /** The answer once the charge is known to be done. */
    protected static final String PAID = "charge o-7: done:charge:o-7";

    private static final Duration RUN_LIMIT = Duration.ofSeconds(120);

    /** The application's main class when it takes the task as its one argument; null when {@link #app} is overridden. */
    private final Class<?> main;

    /** A framework whose application is {@code main}, run with the task as its one argument. */
    protected FrameworkTaskScenario(Class<?> main) {
        this.main = main;
    }

    /** A framework whose test builds its application itself: it overrides {@link #app}. */
    protected FrameworkTaskScenario() {
        this(null);
    }

    /** The framework's application, its run in the task the framework names {@code task}. */
    protected ForkedApp app(String task) {
        if (main == null) {
            throw new IllegalStateException(getClass().getSimpleName() + " names no application: pass it to the"
                    + " constructor or override app(task)");
        }
        return forked(main, task);
    }

    /** The application the kill -9 scenario kills; {@link #app} unless it has a mode for it. */
    protected ForkedApp appToKill(String task) {
        return app(task);
    }

    /** The application the kill -9 scenario restarts; {@link #app} unless it has a mode for it. */
    protected ForkedApp appAfterKill(String task) {
        return app(task);
    }

    /**
     * Runs the application once: the first charge loses its answer, the model retries it rephrased.
     * Asserts the one charge the service applied and the answer; returns the application's results.
     */
    protected final Map<String, String> runWithRephrasedRetry(String task) throws Exception {
        ForkedApp app = app(task).run(tmp.resolve("logs"), RUN_LIMIT);
        Map<String, String> r = app.results();

        assertThat(ledger.effects("charge", "o-7")).as("charges the service applied").isEqualTo(1);
        assertThat(r.get("answer")).isEqualTo(PAID);
        return r;
    }

    /**
     * The run's one charge body ran in the task (its record, {@code task@thread} or the like, starts with
     * {@code bodyPrefix}; {@code where} says which task that is), and the task closed with {@code closedWith}.
     */
    protected static void assertOneBodyThenTheTaskClosed(Map<String, String> r, String bodyPrefix, String where,
                                                         String closedWith) {
        assertThat(r.get("charge_bodies")).as("one body ran, " + where).startsWith(bodyPrefix).doesNotContain(",");
        assertThat(r.get("task_after")).as("the task closes with " + closedWith).isEqualTo("none");
    }

    /** The charge's journal: one intent, and the retry's one probe, which found the charge. */
    protected static void assertOneIntentAndAFoundProbe(List<JournalRecord> charges) {
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT).hasSize(1);
        assertThat(charges).filteredOn(c -> c.type() == RecordType.PROBE).extracting(JournalRecord::probe)
                .containsExactly(ProbeResult.FOUND);
    }

    /**
     * The charge's journal, all of it in {@code task}: one intent and a found probe. Returns its records
     * for what a framework asserts beside (the actor).
     */
    protected final List<JournalRecord> assertJournaledInTheTask(String task) throws IOException {
        List<JournalRecord> charges = journaled(CHARGE);
        assertThat(charges).extracting(JournalRecord::task).containsOnly(task);
        assertOneIntentAndAFoundProbe(charges);
        return charges;
    }

    /**
     * The charge is applied and the process killed before it knows; the restarted process, in the same
     * task, with the model wording it otherwise, probes and finds the charge: no body runs again.
     */
    protected final void assertAKillNineThenTheSameTaskProbes(String task) throws Exception {
        ForkedApp first = appToKill(task).sysprop("lose.ms", 60_000).start(tmp.resolve("logs"));
        // the service has applied the charge; its answer never comes: the process dies before it knows
        await().atMost(Duration.ofSeconds(90)).until(() -> ledger.effects("charge", "o-7") == 1);
        first.kill9();

        ForkedApp second = appAfterKill(task).sysprop("phrasing", 2).run(tmp.resolve("logs"), RUN_LIMIT);
        Map<String, String> r = second.results();
        assertThat(ledger.effects("charge", "o-7")).as("charges the service applied").isEqualTo(1);
        assertThat(r.get("charge_bodies")).as("no body ran after the restart").isEmpty();
        assertThat(r.get("answer")).isEqualTo(PAID);

        assertJournaledInTheTask(task);
    }
}

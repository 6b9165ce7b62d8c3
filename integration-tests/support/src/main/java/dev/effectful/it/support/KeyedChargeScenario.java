package dev.effectful.it.support;

import dev.effectful.agent.e2e.DedupLedger;
import dev.effectful.agent.e2e.ForkedApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scenario of a model SDK whose tool, {@link KeyedCharge}, is a MONEY call with a key header and no
 * probe, against a payment service that deduplicates on {@code Idempotency-Key} ({@link DedupLedger}):
 * a {@link TurnScript} model charges order {@code o-7}, the answer is lost, the model asks again in other
 * words. In one task the re-send carries the lost attempt's key, so the service charges once; after a
 * kill -9 the restarted process in the same task re-sends under that key too; the async client's retry
 * of a 429 keeps the task. A test supplies its application ({@link #app}, by mode) and what is its own.
 *
 * <p>The application's contract: system properties {@code ledger} and {@code lose} (see
 * {@link KeyedCharge}); {@code RESULT} lines {@code answer}, {@code bodies} ({@code task@thread},
 * comma-separated), {@code rate_limited} (async mode) and {@code task_after}.
 */
public abstract class KeyedChargeScenario extends ForkedAppTest {

    /** The tool the scripted model calls. */
    protected static final String CHARGE = "charge_card";

    private static final Duration RUN_LIMIT = Duration.ofSeconds(90);

    /** The payment service; it outlives a kill -9 of the application. */
    protected DedupLedger service;

    @BeforeEach
    void startService() throws Exception {
        service = new DedupLedger();
    }

    @AfterEach
    void stopService() throws Exception {
        service.close();
    }

    @Override
    protected final String ledgerUrl() {
        return service.url();
    }

    /** The SDK's application in {@code mode} ({@code async}: the async client, its second turn a 429). */
    protected abstract ForkedApp app(String mode);

    /** Runs {@code mode} with a first answer lost after 1.5 s; the application has answered {@link TurnScript#PAID}. */
    protected final ForkedApp runWithALostAnswer(String mode) throws Exception {
        ForkedApp app = app(mode).sysprop("lose", 1500).run(tmp.resolve("logs"), RUN_LIMIT);
        assertThat(app.results().get("answer")).as(app.stderr()).isEqualTo(TurnScript.PAID);
        return app;
    }

    /**
     * The service charged {@code o-7} once, from two requests under one key (neither without one);
     * returns the keys.
     */
    protected final List<String> assertChargedOnceUnderOneKey(String why) {
        assertThat(service.charges("o-7")).as("charges the service applied").isEqualTo(1);
        List<String> keys = service.keys("o-7");
        assertThat(keys).hasSize(2).doesNotContain(DedupLedger.NONE);
        assertThat(keys.get(1)).as(why).isEqualTo(keys.get(0));
        return keys;
    }

    /**
     * The charge is applied and the process killed before it knows; the restarted {@code mode}, in the
     * same task, re-sends it under the key of the attempt the kill cut. Returns the keys.
     */
    protected final List<String> assertAKillNineThenTheSameKey(String mode) throws Exception {
        ForkedApp first = app(mode).sysprop("lose", 60_000).start(tmp.resolve("logs1"));
        // the service has charged; its answer never comes: the process dies before it knows
        await().atMost(Duration.ofSeconds(60)).until(() -> service.charges("o-7") == 1);
        first.kill9();

        ForkedApp second = app(mode).run(tmp.resolve("logs2"), RUN_LIMIT);
        assertThat(second.results().get("answer")).as(second.stderr()).isEqualTo(TurnScript.PAID);
        assertThat(service.charges("o-7")).as("charges the service applied").isEqualTo(1);
        List<String> keys = service.keys("o-7");
        assertThat(keys).hasSize(2);
        assertThat(keys.get(1)).as("re-sent with the key of the attempt the kill cut").isEqualTo(keys.get(0));
        return keys;
    }

    /**
     * The async client's loop in {@code task}: the model's 429 between the two tool calls is retried by
     * the SDK, and both bodies, and the key, stay the task's.
     */
    protected final void assertTheAsyncRetryOfA429KeepsTheTask(String task) throws Exception {
        ForkedApp app = runWithALostAnswer("async");
        Map<String, String> r = app.results();

        assertThat(r.get("rate_limited")).as("the model answered 429 once, between the two tool calls").isEqualTo("1");
        assertThat(r.get("bodies").split(",")).hasSize(2).allSatisfy(b -> assertThat(b).startsWith(task + "@"));
        assertChargedOnceUnderOneKey("same key on the header after the SDK's retry");
        assertThat(app.stderr()).doesNotContain("outside any task");
    }
}

package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.KeySentApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The journal knows when a key went out ({@code key_sent}): a MONEY tool with a key header, no probe, and
 * a loopback payment service that deduplicates on {@code Idempotency-Key}, in JVMs started with the real
 * agent. A lost answer, or a kill -9 after the request left, is re-sent with the same key and charged once;
 * the same tool whose request went through a client the agent does not cover is held, never re-run.
 */
public class KeySentIT {

    @TempDir
    Path tmp;

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    static Stream<Arguments> jdksAndTools() {
        return Jdk.all().stream().flatMap(jdk -> Stream.of("create_order", "charge_card").map(t -> Arguments.of(jdk, t)));
    }

    private ForkedApp app(Jdk jdk, DedupLedger service, String order, String scenario, String client) {
        return app(jdk, service, order, scenario, client, "charge_card");
    }

    private ForkedApp app(Jdk jdk, DedupLedger service, String order, String scenario, String client, String tool) {
        return ForkedApp.jdk(jdk).main(KeySentApp.class, scenario, client)
                .sysprop("effectful.journal.dir", tmp.resolve("journal")).sysprop("ledger", service.url())
                .sysprop("order", order).sysprop("tool", tool);
    }

    private List<JournalRecord> keySent() throws java.io.IOException {
        return JournalContents.of(tmp.resolve("journal")).where(r -> r.type() == RecordType.KEY_SENT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aLostAnswerIsReSentWithTheSameKeyAndChargedOnce(Jdk jdk) throws Exception {
        try (DedupLedger service = new DedupLedger()) {
            ForkedApp app = app(jdk, service, "o-lost", "lost", "jdk").run(tmp.resolve("logs"), Duration.ofSeconds(90));
            Map<String, String> r = app.results();
            assertThat(r.get("first")).as(app.stderr()).contains("\"outcome\":\"unknown\"");
            assertThat(r.get("retry")).as("re-sent, not held: " + app.stderr()).startsWith("ok charged:o-lost#1");
            assertThat(service.charges("o-lost")).as("the service deduplicated the re-send").isEqualTo(1);
            List<String> keys = service.keys("o-lost");
            assertThat(keys).hasSize(2);
            assertThat(keys.get(1)).as("the rephrased retry carries the same key").isEqualTo(keys.get(0))
                    .matches("[0-9a-f]{32}");
            List<JournalRecord> sent = keySent();
            assertThat(sent).extracting(JournalRecord::attempt).containsExactly(1, 2);
            assertThat(sent).allSatisfy(s -> {
                assertThat(s.intentKey()).isEqualTo(keys.get(0));
                assertThat(s.header()).isEqualTo("Idempotency-Key");
                assertThat(s.attemptId()).isNotBlank();
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aKillAfterTheRequestLeftIsReRunWithTheSameKeyAfterTheRestart(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (DedupLedger service = new DedupLedger()) {
            ForkedApp first = app(jdk, service, "o-crash", "hang", "jdk").start(tmp.resolve("logs1"));
            await().atMost(Duration.ofSeconds(60)).until(() -> service.charges("o-crash") == 1);
            first.kill9();

            ForkedApp after = app(jdk, service, "o-crash", "resume", "jdk").run(tmp.resolve("logs2"), Duration.ofSeconds(90));
            assertThat(after.results().get("resume")).as(after.stderr()).startsWith("ok charged:o-crash#1");
            assertThat(service.charges("o-crash")).isEqualTo(1);
            List<String> keys = service.keys("o-crash");
            assertThat(keys).hasSize(2);
            assertThat(keys.get(1)).isEqualTo(keys.get(0)).matches("[0-9a-f]{32}");

            // the operator's view of the same journal: show and export print the record
            CliRun show = CliRun.journal(journal, "show", "pay-o-crash");
            assertThat(show.exitCode()).as(show.toString()).isZero();
            assertThat(show.stdout()).contains("key_sent").contains("the intent key went out in header Idempotency-Key");
            CliRun export = CliRun.journal(journal, "export");
            assertThat(export.exitCode()).as(export.toString()).isZero();
            assertThat(export.stdout().lines().filter(l -> l.contains("\"type\":\"key_sent\"")).toList())
                    .hasSize(2).allMatch(l -> l.contains("\"header\":\"Idempotency-Key\"")
                            && l.contains("\"intent_key\":\"" + keys.get(0) + "\"") && l.contains("\"attempt_id\":"));
        }
    }

    /**
     * The CREATE is the case a key header alone used to make keyable: re-run blind after the restart, it
     * reached the service again with nothing to deduplicate on. The MONEY tool is held the same way.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("jdksAndTools")
    void aRequestThroughAnUncoveredClientCutByAKillIsHeldNeverReRun(Jdk jdk, String tool) throws Exception {
        Path journal = tmp.resolve("journal");
        try (DedupLedger service = new DedupLedger()) {
            ForkedApp first = app(jdk, service, "o-raw", "hang", "raw", tool).start(tmp.resolve("logs1"));
            await().atMost(Duration.ofSeconds(60)).until(() -> service.charges("o-raw") == 1);
            first.kill9();

            ForkedApp after = app(jdk, service, "o-raw", "resume", "raw", tool).run(tmp.resolve("logs2"), Duration.ofSeconds(90));
            String resume = after.results().get("resume");
            assertThat(resume).as(after.stderr()).contains("\"outcome\":\"unknown\"").contains("held until a person");
            assertThat(service.keys("o-raw")).as("no second request: the key never reached the service")
                    .containsExactly(DedupLedger.NONE);
            assertThat(service.charges("o-raw")).isEqualTo(1);
            assertThat(keySent()).as("no covered client sent a key").isEmpty();
            CliRun unresolved = CliRun.journal(journal, "unresolved");
            assertThat(unresolved.exitCode()).as("a person must check it: " + unresolved).isEqualTo(3);
            assertThat(unresolved.stdout()).contains(tool);
        }
    }
}

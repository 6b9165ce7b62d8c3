package dev.effectful.it.kotlin;

import dev.effectful.agent.e2e.CliRun;
import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The acceptance matrix of an async SEND tool, whatever its shape (a subclass names the app): its
 * work starts after a delay and sends one SMS to a loopback ledger that counts effects on its own.
 * A rephrased repeat is one effect and gets the first value; two targets are two effects; a kill -9
 * while the work is pending leaves "intended, no outcome", probed (or held) after a restart, never
 * "already done"; a lost answer is unknown on the real intent and its retry probed; a refused
 * connection is retryable and its retry runs once. Every journal is exported and searched for a
 * promise, Kotlin's marker or a continuation: none may be there.
 */
abstract class AsyncToolMatrix {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private static final Duration RUN = Duration.ofSeconds(90);

    @TempDir
    Path tmp;

    /** The application's main class: it runs {@code AsyncScenarios} with its shape's tools. */
    abstract Class<?> app() throws ClassNotFoundException;

    private ForkedApp app(Jdk jdk, Path journal, EffectLedger ledger, String scenario) throws ClassNotFoundException {
        return ForkedApp.jdk(jdk).main(app(), scenario)
                .sysprop("effectful.journal.dir", journal)
                .sysprop("ledger", ledger.url())
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"));
    }

    private Path logs() {
        return tmp.resolve("logs");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aRephrasedRepeatIsOneEffectAndGetsTheFirstValue(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "repeat").run(logs(), RUN).results();
            assertThat(r).containsEntry("first", "done:sms:+100").containsEntry("second", "done:sms:+100");
            assertThat(ledger.effects("sms", "+100")).as("SMS sent").isEqualTo(1);

            JournalContents j = JournalContents.of(journal);
            JournalRecord intent = only(j, RecordType.INTENT);
            assertThat(intent.args()).contains("\"phone\":\"+100\"").doesNotContain("completion");
            JournalRecord outcome = only(j, RecordType.OUTCOME);
            assertThat(outcome.intentKey()).isEqualTo(intent.intentKey());
            assertThat(outcome.outcome()).isEqualTo(OutcomeWord.OK);
            assertThat(outcome.result()).isEqualTo("\"done:sms:+100\"");
            assertThat(j.of(RecordType.DEDUP)).extracting(JournalRecord::intentKey).containsExactly(intent.intentKey());
            assertNoPromiseInTheExport(journal);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void twoTargetsInOneTaskAreTwoEffects(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "two").run(logs(), RUN).results();
            assertThat(r).containsEntry("a", "done:sms:+201").containsEntry("b", "done:sms:+202");
            assertThat(ledger.effects("sms", "+201")).isEqualTo(1);
            assertThat(ledger.effects("sms", "+202")).isEqualTo(1);
            JournalContents j = JournalContents.of(journal);
            assertThat(j.of(RecordType.INTENT)).hasSize(2);
            assertThat(j.of(RecordType.OUTCOME)).extracting(JournalRecord::outcome)
                    .containsExactly(OutcomeWord.OK, OutcomeWord.OK);
            assertThat(j.of(RecordType.DEDUP)).isEmpty();
            assertNoPromiseInTheExport(journal);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void killedWhilePendingIsProbedAfterARestartOrHeldWithoutAProbe(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            // with a probe: absent after the crash, so the restarted call sends it, once
            ForkedApp crashed = app(jdk, journal, ledger, "call").sysprop("delay.ms", 120_000).start(logs());
            await("the intent is journaled", () -> intents(journal, "send_sms") == 1, crashed);
            crashed.kill9();
            JournalContents afterCrash = JournalContents.of(journal);
            String key = only(afterCrash, RecordType.INTENT).intentKey();
            assertThat(afterCrash.where(r -> key.equals(r.intentKey()))).extracting(JournalRecord::type)
                    .as("intended, no outcome").containsExactly(RecordType.INTENT);
            assertThat(ledger.effects("sms", "+300")).isZero();

            Map<String, String> r = app(jdk, journal, ledger, "call").run(logs(), RUN).results();
            assertThat(r).containsEntry("call", "done:sms:+300");
            assertThat(ledger.effects("sms", "+300")).as("SMS sent after the restart").isEqualTo(1);
            List<JournalRecord> records = JournalContents.of(journal).where(x -> key.equals(x.intentKey()));
            assertThat(records).extracting(JournalRecord::type)
                    .containsExactly(RecordType.INTENT, RecordType.PROBE, RecordType.INTENT, RecordType.OUTCOME);
            assertThat(records.get(1).probe()).isEqualTo(ProbeResult.ABSENT);

            // without a probe: held for a person, never "already done" and never sent blind
            ForkedApp crashed2 = app(jdk, journal, ledger, "call-unprobed").sysprop("delay.ms", 120_000).start(logs());
            await("the intent is journaled", () -> intents(journal, "send_sms_unprobed") == 1, crashed2);
            crashed2.kill9();
            Map<String, String> held = app(jdk, journal, ledger, "call-unprobed").run(logs(), RUN).results();
            assertThat(held.get("call")).startsWith("THROWN {\"outcome\":\"unknown\",\"effect_applied\":\"unknown\"");
            assertThat(ledger.effects("sms", "+301")).isZero();
            assertNoPromiseInTheExport(journal);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aLostAnswerIsUnknownOnTheRealIntentAndTheRetryIsProbed(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "timeout").run(logs(), RUN).results();
            assertThat(r.get("first")).startsWith("THROWN {\"outcome\":\"unknown\",\"effect_applied\":\"unknown\"")
                    .contains("read timed out");
            assertThat(r).containsEntry("second", "done:sms:+400");
            assertThat(ledger.effects("sms", "+400")).as("SMS applied").isEqualTo(1);

            JournalContents j = JournalContents.of(journal);
            JournalRecord intent = only(j, RecordType.INTENT);
            assertThat(intent.args()).contains("\"phone\":\"+400\"");
            JournalRecord unknown = only(j, RecordType.OUTCOME);
            assertThat(unknown.intentKey()).isEqualTo(intent.intentKey());
            assertThat(unknown.outcome()).isEqualTo(OutcomeWord.UNKNOWN);
            assertThat(unknown.effectApplied()).isEqualTo(Effect.UNKNOWN);
            JournalRecord probe = only(j, RecordType.PROBE);
            assertThat(probe.intentKey()).isEqualTo(intent.intentKey());
            assertThat(probe.probe()).isEqualTo(ProbeResult.FOUND);
            assertNoPromiseInTheExport(journal);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aRefusedConnectionIsRetryableAndTheRetryRunsOnce(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "connect").run(logs(), RUN).results();
            assertThat(r.get("first")).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"");
            assertThat(r).containsEntry("second", "done:sms:+500");
            assertThat(ledger.effects("sms", "+500")).isEqualTo(1);
            JournalContents j = JournalContents.of(journal);
            assertThat(j.of(RecordType.INTENT)).extracting(JournalRecord::attempt).containsExactly(1, 2);
            assertThat(j.of(RecordType.OUTCOME)).extracting(JournalRecord::outcome)
                    .containsExactly(OutcomeWord.RETRYABLE, OutcomeWord.OK);
            assertNoPromiseInTheExport(journal);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theSameIntentInFlightIsJoinedNeverRunTwice(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "join").sysprop("delay.ms", 1_000).run(logs(), RUN)
                    .results();
            assertThat(r).containsEntry("both", "done:sms:+600|done:sms:+600");
            assertThat(ledger.effects("sms", "+600")).isEqualTo(1);
            JournalContents j = JournalContents.of(journal);
            assertThat(j.of(RecordType.INTENT)).hasSize(1);
            assertThat(j.of(RecordType.OUTCOME)).hasSize(1);
            assertThat(j.of(RecordType.DEDUP)).hasSize(1);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theDeadlineCancelsThePendingWorkAndRecordsUnknown(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "deadline").sysprop("delay.ms", 20_000)
                    .sysprop("budget.s", 2).run(logs(), RUN).results();
            assertThat(r.get("call")).startsWith("THROWN {\"outcome\":\"unknown\",\"effect_applied\":\"unknown\"")
                    .contains("deadline reached");
            assertThat(Long.parseLong(r.get("call_ms"))).as("answered at the deadline, not after the work")
                    .isLessThan(10_000);
            assertThat(ledger.effects("sms", "+700")).as("the cancelled work sent nothing").isZero();
            JournalRecord outcome = only(JournalContents.of(journal), RecordType.OUTCOME);
            assertThat(outcome.outcome()).isEqualTo(OutcomeWord.UNKNOWN);
            assertThat(outcome.effectApplied()).isEqualTo(Effect.UNKNOWN);
        }
    }

    /** The journal as a person reads it: no promise, no Kotlin marker, no continuation, no null-keyed phantom. */
    static void assertNoPromiseInTheExport(Path journal) throws Exception {
        CliRun export = CliRun.journal(journal, "export");
        assertThat(export.exitCode()).as(export.toString()).isZero();
        assertThat(export.stdout()).isNotBlank()
                .doesNotContain("COROUTINE_SUSPENDED")
                .doesNotContain("\"done\":")
                .doesNotContain("completedExceptionally")
                .doesNotContain("$completion")
                .doesNotContain("Continuation")
                .doesNotContain("\"phone\":null");
    }

    private static JournalRecord only(JournalContents j, RecordType type) {
        List<JournalRecord> all = j.of(type);
        assertThat(all).as(type.toString()).hasSize(1);
        return all.get(0);
    }

    private static long intents(Path journal, String call) {
        try {
            return JournalContents.of(journal).forCall(call).stream().filter(r -> r.type() == RecordType.INTENT).count();
        } catch (Exception notYet) {
            return 0;
        }
    }

    private static void await(String what, BooleanSupplier condition, ForkedApp app) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 60 s: " + what + "\nstdout:\n" + app.stdout() + "\nstderr:\n"
                        + app.stderr());
            }
            Thread.sleep(20);
        }
    }
}

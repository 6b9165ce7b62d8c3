package dev.effectful.agent.e2e;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.agent.e2e.apps.Gate;
import dev.effectful.agent.e2e.apps.ReentryApp;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: a repeat returns the original success, an unknown is probed before anything
 * runs again. Real JVMs with the real agent jar, a real kill -9, a real journal on disk, and a
 * loopback service that counts every effect, so no test passes on the agent's word alone.
 */
class ReentryIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private static final Duration RUN = Duration.ofSeconds(60);
    /** Short enough to watch expire, long enough for a loaded machine to restart a JVM within it. */
    private static final Duration RETENTION = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    private ForkedApp app(Jdk jdk, Path journal, EffectLedger ledger, String scenario) {
        return ForkedApp.jdk(jdk).main(ReentryApp.class, scenario)
                .sysprop("effectful.journal.dir", journal)
                .sysprop("ledger", ledger.url())
                .sysprop("task", "t-reentry")
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"));
    }

    private Path logs() {
        return tmp.resolve("logs");
    }

    private static void await(String what, BooleanSupplier condition, ForkedApp app) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 30 s: " + what + "\nstdout:\n" + app.stdout() + "\nstderr:\n" + app.stderr());
            }
            Thread.sleep(10);
        }
    }

    private static List<JournalRecord> ofKey(JournalContents j, String key) {
        return j.where(r -> key.equals(r.intentKey()));
    }

    private static String keyOf(JournalContents j, String call) {
        return j.forCall(call).stream().filter(r -> r.type() == RecordType.INTENT).findFirst().orElseThrow().intentKey();
    }

    // ------------------------------------------------------------ 1. kill mid-call

    @Test
    void killedMidCallIsProbedOnResumeAndNeverAppliedTwice() throws Exception {
        Jdk jdk = Jdk.current();
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp crashed = app(jdk, journal, ledger, "charge").start(logs());
            await("the charge reached the service", () -> ledger.effects("charge", "o-1") == 1, crashed);
            crashed.kill9();

            JournalContents afterCrash = JournalContents.of(journal);
            String key = keyOf(afterCrash, "charge");
            assertThat(ofKey(afterCrash, key)).extracting(JournalRecord::type).containsExactly(RecordType.INTENT);

            // the next morning: a new process resumes the same task and calls the same intent
            ForkedApp resumed = app(jdk, journal, ledger, "charge").sysprop("budget.ms", 15_000).run(logs(), RUN);
            Map<String, String> r = resumed.results();
            assertThat(r.get("charge")).isEqualTo("done:charge:o-1");
            assertThat(r.get("charge_again")).isEqualTo(r.get("charge"));

            assertThat(ledger.effects("charge", "o-1")).as("charges applied").isEqualTo(1);
            assertThat(ledger.hits("/apply-then-hang/charge")).as("charge requests sent").isEqualTo(1);
            assertThat(ledger.hits("/effect/charge")).as("probe requests").isEqualTo(1);

            List<JournalRecord> records = ofKey(JournalContents.of(journal), key);
            assertThat(records).extracting(JournalRecord::type)
                    .containsExactly(RecordType.INTENT, RecordType.PROBE, RecordType.DEDUP);
            JournalRecord probe = records.get(1);
            assertThat(probe.probe()).isEqualTo(ProbeResult.FOUND);
            assertThat(probe.outcome()).isEqualTo(OutcomeWord.OK);
            assertThat(probe.effectApplied()).isEqualTo(Effect.YES);
            assertThat(probe.pid()).isNotEqualTo(records.get(0).pid());
        }
    }

    @Test
    void killedMidCallWithoutAProbeIsHeldUnknownAndNotSentAgain() throws Exception {
        Jdk jdk = Jdk.current();
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp crashed = app(jdk, journal, ledger, "notify").start(logs());
            await("the message reached the service", () -> ledger.effects("notify_customer", "bob@example.com") == 1, crashed);
            crashed.kill9();
            String key = keyOf(JournalContents.of(journal), "notify_customer");

            Map<String, String> r = app(jdk, journal, ledger, "notify").run(logs(), RUN).results();
            assertThat(r.get("notify")).startsWith("THROWN {\"outcome\":\"unknown\",\"effect_applied\":\"unknown\"")
                    .contains("\"intent_key\":\"" + key + "\"", "held until a person resolves it")
                    .doesNotContain("\"attempt_id\"");
            assertThat(ledger.hits("/apply-then-hang/notify_customer")).as("messages sent").isEqualTo(1);
            assertThat(ledger.effects("notify_customer", "bob@example.com")).isEqualTo(1);
            assertUnresolvedInTheJournalExport(journal, key);
        }
    }

    /**
     * What {@code java -jar effectful-agent.jar journal --dir DIR unresolved} must list: an intent
     * with no outcome and no person's resolution. Read here through {@link JournalContents} so the
     * test stands without the CLI; the same assertion over the CLI's export replaces this body.
     */
    private static void assertUnresolvedInTheJournalExport(Path journal, String key) throws Exception {
        CliRun unresolved = CliRun.journal(journal, "--json", "unresolved");
        assertThat(unresolved.exitCode()).as(unresolved.toString()).isEqualTo(3);
        assertThat(unresolved.stdout()).contains(key);
        CliRun export = CliRun.journal(journal, "export");
        assertThat(export.stdout().lines().filter(l -> l.contains(key))).as(export.toString())
                .noneMatch(l -> l.contains("\"type\":\"outcome\""));
        List<JournalRecord> records = ofKey(JournalContents.of(journal), key);
        List<JournalRecord> intents = records.stream().filter(x -> x.type() == RecordType.INTENT).toList();
        assertThat(intents).hasSize(1);
        assertThat(records).noneMatch(x -> x.type() == RecordType.OUTCOME || x.type() == RecordType.RESOLUTION
                || x.type() == RecordType.PROBE);
        assertThat(records).filteredOn(x -> x.type() == RecordType.REFUSED).singleElement()
                .satisfies(x -> assertThat(x.outcome()).isEqualTo(OutcomeWord.UNKNOWN));
    }

    // ------------------------------------------------------------ 2. duplicate delivery

    @ParameterizedTest
    @MethodSource("jdks")
    void duplicateDeliveryAppliesOnceAndReturnsTheOriginalValueEvenInANewProcess(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "duplicate").run(logs(), RUN).results();
            assertThat(r.get("first")).startsWith("Receipt[confirmation=done:place_order:o-7, attempt=1, at=")
                    .endsWith("lines=[two lamps, please]]");
            assertThat(r.get("second")).as("the rephrased repeat gets the original value").isEqualTo(r.get("first"));
            assertThat(ledger.effects("place_order", "o-7")).isEqualTo(1);

            JournalContents j = JournalContents.of(journal);
            String key = keyOf(j, "place_order");
            assertThat(ofKey(j, key)).extracting(JournalRecord::type)
                    .containsExactly(RecordType.INTENT, RecordType.OUTCOME, RecordType.DEDUP);

            // a new process, the same task: the stored value (with the first process's timestamp) comes back
            Map<String, String> later = app(jdk, journal, ledger, "duplicate").run(logs(), RUN).results();
            assertThat(later.get("first")).isEqualTo(r.get("first"));
            assertThat(later.get("second")).isEqualTo(r.get("first"));
            assertThat(ledger.effects("place_order", "o-7")).isEqualTo(1);
            assertThat(ledger.hits("/effect/place_order")).isEqualTo(1);
            assertThat(ofKey(JournalContents.of(journal), key)).filteredOn(x -> x.type() == RecordType.DEDUP).hasSize(3);
        }
    }

    @Test
    void aResultThatCouldNotBeStoredIsAnsweredOkWithoutItInALaterProcess() throws Exception {
        Jdk jdk = Jdk.current();
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> first = app(jdk, journal, ledger, "unstored").run(logs(), RUN).results();
            assertThat(first.get("session")).isEqualTo("Session[done:open_session:s-1]");
            JournalRecord outcome = JournalContents.of(journal).of(RecordType.OUTCOME).get(0);
            assertThat(outcome.outcome()).isEqualTo(OutcomeWord.OK);
            assertThat(outcome.result()).isNull();
            assertThat(outcome.message()).contains("result not stored");

            Map<String, String> again = app(jdk, journal, ledger, "unstored").run(logs(), RUN).results();
            assertThat(again.get("session")).startsWith("THROWN {\"outcome\":\"ok\",\"effect_applied\":\"yes\"")
                    .contains("the original result was not stored");
            assertThat(ledger.effects("open_session", "s-1")).isEqualTo(1);
        }
    }

    // ------------------------------------------------------------ 3. 200 with an error body

    @ParameterizedTest
    @MethodSource("jdks")
    void aTwoHundredWhoseBodySaysErrorIsNotOkWhenTheToolChecksIt(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "error-body").run(logs(), RUN).results();
            assertThat(r.get("checked")).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"")
                    .contains("card declined");
            // the same 200 without a declared check: status alone is all the agent can see
            assertThat(r.get("unchecked")).isEqualTo("200");
            assertThat(ledger.hits("/error-body")).isEqualTo(2);
            JournalContents j = JournalContents.of(journal);
            assertThat(j.forCall("pay")).filteredOn(x -> x.type() == RecordType.OUTCOME).singleElement()
                    .satisfies(o -> {
                        assertThat(o.outcome()).isEqualTo(OutcomeWord.PERMANENT);
                        assertThat(o.result()).isNull();
                    });
        }
    }

    // ------------------------------------------------------------ 4. slow success

    @ParameterizedTest
    @MethodSource("jdks")
    void aSecondCallDuringASlowSuccessWaitsForItAndSharesIt(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "slow").run(logs(), RUN).results();
            assertThat(r.get("first")).startsWith("Receipt[confirmation=done:slow:o-3, attempt=1,");
            assertThat(r.get("second")).isEqualTo(r.get("first"));
            assertThat(ledger.effects("slow", "o-3")).isEqualTo(1);
            assertThat(ledger.hits("/slow/3000")).isEqualTo(1);
            JournalContents j = JournalContents.of(journal);
            List<JournalRecord> records = ofKey(j, keyOf(j, "slow_order"));
            assertThat(records).extracting(JournalRecord::type)
                    .containsExactly(RecordType.INTENT, RecordType.OUTCOME, RecordType.DEDUP);
            assertThat(records.get(2).message()).as("the second call waited for the first, in flight")
                    .contains("concurrent call");
        }
    }

    // ------------------------------------------------------------ 5. rate limit

    @Test
    void retryAfterIsHonouredByRefusingWithoutReachingTheService() throws Exception {
        Jdk jdk = Jdk.current();
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "rate-limited").run(logs(), RUN).results();
            assertThat(r.get("first")).contains("\"outcome\":\"retryable\"", "\"effect_applied\":\"no\"",
                    "\"retry_after_s\":30");
            assertThat(r.get("one_second_later")).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"")
                    .contains("retry after").doesNotContain("\"attempt_id\"");
            assertThat(retryAfter(r.get("one_second_later"))).isBetween(27L, 29L);
            assertThat(ledger.hits("/status/429")).as("requests that reached the service").isEqualTo(1);

            // a restarted process remembers the service's request to wait
            Map<String, String> restarted = app(jdk, journal, ledger, "rate-limited").sysprop("once", true)
                    .run(logs(), RUN).results();
            assertThat(restarted.get("first")).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"");
            assertThat(retryAfter(restarted.get("first"))).isBetween(1L, 29L);
            assertThat(ledger.hits("/status/429")).isEqualTo(1);
            assertThat(JournalContents.of(journal).of(RecordType.REFUSED)).hasSize(2);
        }
    }

    private static long retryAfter(String json) {
        Matcher m = Pattern.compile("\"retry_after_s\":(\\d+)").matcher(json);
        assertThat(m.find()).as("retry_after_s in " + json).isTrue();
        return Long.parseLong(m.group(1));
    }

    // ------------------------------------------------------------ stampede

    @ParameterizedTest
    @MethodSource("jdks")
    void sixtyFourThreadsCallingOneNewIntentRunItOnce(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = app(jdk, journal, ledger, "stampede").run(logs(), RUN).results();
            assertThat(r).hasSize(64);
            assertThat(r.get("t0")).startsWith("Receipt[confirmation=done:place_order:o-64, attempt=1,");
            assertThat(r.values()).containsOnly(r.get("t0"));
            assertThat(ledger.effects("place_order", "o-64")).isEqualTo(1);
            assertThat(ledger.hits("/effect/place_order")).isEqualTo(1);
            JournalContents j = JournalContents.of(journal);
            List<JournalRecord> records = ofKey(j, keyOf(j, "place_order"));
            assertThat(records).filteredOn(x -> x.type() == RecordType.INTENT).hasSize(1);
            assertThat(records).filteredOn(x -> x.type() == RecordType.DEDUP).hasSize(63);
        }
    }

    // ------------------------------------------------------------ 6. retention

    @Test
    void anIntentOlderThanRetentionIsForgottenAYoungerOneSurvivesARestart() throws Exception {
        Jdk jdk = Jdk.current();
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            // the restart's JVM boots meanwhile and opens the journal only when the first process is gone
            Path gate = tmp.resolve("gate");
            ForkedApp second = retentionApp(jdk, journal, ledger, "retention-second")
                    .main(Gate.class, ReentryApp.class.getName(), "retention-second").sysprop("gate", gate).start(logs());
            // old at T, unresolved at T+1 s (next cycle file), young at T + retention + 1.5 s, then exit
            ForkedApp first = retentionApp(jdk, journal, ledger, "retention-first")
                    .sysprop("young.after.ms", RETENTION.toMillis() + 1_500).run(logs(), RUN);
            Map<String, Integer> cycleOf = cyclesByKey(journal);
            JournalContents before = JournalContents.of(journal);
            // the restart: the old intent is past the window, the young one is not
            Files.createFile(gate);
            assertThat(first.results().get("old")).isEqualTo("done:ping:old");
            assertThat(first.results().get("unresolved")).contains("\"outcome\":\"unknown\"");
            assertThat(first.results().get("young")).isEqualTo("done:ping:young");
            String old = keyOf(before, "ping");
            String unresolved = keyOf(before, "submit");
            assertThat(cycleOf.get(old)).isLessThan(cycleOf.get(unresolved));

            assertThat(second.awaitExit(RUN)).as("restarted process exit code\n%s", second.stderr()).isZero();
            Map<String, String> r = second.results();
            assertThat(r.get("old_again")).isEqualTo("done:ping:old");
            assertThat(ledger.effects("ping", "old")).as("a forgotten intent runs again").isEqualTo(2);
            assertThat(r.get("young")).isEqualTo("done:ping:young");
            JournalContents after = JournalContents.of(journal);
            JournalRecord youngOk = before.where(x -> x.type() == RecordType.OUTCOME && "ping".equals(x.call())).get(1);
            assertThat(ledger.effects("ping", "young")).as("a remembered intent is not run again; journal:\n%s\nstderr:\n%s",
                    after.records().stream().map(JournalRecord::toString).collect(java.util.stream.Collectors.joining("\n")),
                    second.stderr()).isEqualTo(1);
            JournalRecord youngDedup = after.where(x -> x.type() == RecordType.DEDUP).get(0);
            assertThat(youngDedup.intentKey()).isEqualTo(youngOk.intentKey());
            assertThat(youngDedup.started() - youngOk.started()).as("the restart came within the retention window"
                    + " (a machine too slow to start a JVM in %s cannot run this test)", RETENTION)
                    .isLessThan(RETENTION.toMillis());
            assertThat(ledger.effects("ping", "young")).as("a remembered intent is not run again").isEqualTo(1);
            assertThat(r.get("unresolved_again")).as("an unresolved intent is never forgotten")
                    .startsWith("THROWN {\"outcome\":\"unknown\"").contains("held until a person resolves it");
            assertThat(ledger.hits("/status/500")).isEqualTo(1);

            List<Integer> cycles = cyclesOnDisk(journal);
            assertThat(cycles).as("the expired cycle file of the old intent").doesNotContain(cycleOf.get(old));
            assertThat(cycles).as("the expired cycle file holding an unresolved intent").contains(cycleOf.get(unresolved));
            assertThat(after.records()).noneMatch(x -> x.type() == RecordType.INTENT && x.pid() == first.pid()
                    && old.equals(x.intentKey()));
        }
    }

    private ForkedApp retentionApp(Jdk jdk, Path journal, EffectLedger ledger, String scenario) {
        return app(jdk, journal, ledger, scenario).sysprop("effectful.retention", RETENTION.toSeconds() + "s")
                .sysprop("budget.ms", 120_000)
                .sysprop("effectful.roll.cycle", "secondly");
    }

    /** The cycle (one per second here) that each intent's first record went into. */
    private static Map<String, Integer> cyclesByKey(Path journal) throws IOException {
        Map<String, Integer> out = new HashMap<>();
        try (ChronicleJournal j = ChronicleJournal.openReader(journal)) {
            for (int cycle : j.cycles()) {
                j.replayCycle(cycle, (i, r) -> out.putIfAbsent(r.intentKey(), cycle));
            }
        }
        return out;
    }

    private static List<Integer> cyclesOnDisk(Path journal) throws IOException {
        try (ChronicleJournal j = ChronicleJournal.openReader(journal)) {
            return j.cycles();
        }
    }

    // ------------------------------------------------------------ one writer per journal

    @Test
    void aSecondLiveProcessIsRefusedNamingTheHolderAndTheLockOfAKilledOneIsTakenOver() throws Exception {
        Jdk jdk = Jdk.current();
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp holder = app(jdk, journal, ledger, "hold").start(logs());
            holder.awaitLine("HOLDING"::equals, RUN);

            Map<String, String> refused = app(jdk, journal, ledger, "ping").sysprop("ids", "b").run(logs(), RUN).results();
            assertThat(refused.get("ping_b")).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"")
                    .contains("journal unavailable", "in use by pid " + holder.pid());
            assertThat(ledger.effects("ping", "b")).isZero();

            holder.kill9();
            ForkedApp next = app(jdk, journal, ledger, "ping").sysprop("ids", "b").run(logs(), RUN);
            assertThat(next.results().get("ping_b")).isEqualTo("done:ping:b");
            assertThat(ledger.effects("ping", "b")).isEqualTo(1);
            assertThat(JournalContents.of(journal).forCall("ping")).filteredOn(x -> x.type() == RecordType.OUTCOME)
                    .extracting(JournalRecord::pid).containsExactly(holder.pid(), next.pid());
        }
    }
}

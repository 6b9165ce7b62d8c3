package dev.effectful.agent.e2e;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.agent.e2e.apps.CoreApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** End to end: real JVMs, the real agent jar as their only flag, a real loopback service. */
class CoreAgentIT extends ForkedJvmTest {

    @EveryJdk
    void startsQuietlyAndNeverTouchesTheNetwork(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        Path trace = tmp.resolve("connect.trace");
        ForkedApp app = forked(jdk, journal).main(CoreApp.class, "quiet");
        Files.createDirectories(tmp.resolve("home")); // a real home exists; nothing of ours creates one any more
        boolean strace = Files.isExecutable(Path.of("/usr/bin/strace"));
        if (strace) {
            app.prefix("/usr/bin/strace", "-f", "-qq", "-e", "trace=connect,sendto", "-o", trace.toString());
        }
        app.run(tmp.resolve("logs"), Duration.ofSeconds(60));

        assertThat(app.results()).containsEntry("note", "noted:n-1").containsEntry("price", "42");
        assertThat(app.stdout().lines()).allMatch(l -> l.startsWith("RESULT ") || l.equals("DONE"));
        assertThat(app.stderr().lines().filter(l -> !JvmWarnings.isJvmFlagWarning(jdk, l)))
                .as("stderr of a normal start (only warnings that need a JVM flag are allowed)")
                .isEmpty();
        try (Stream<Path> home = Files.walk(tmp.resolve("home")).filter(p -> p.getFileName().toString().contains("chronicle"))) {
            assertThat(home).as("Chronicle analytics files").isEmpty();
        }
        assertThat(JournalContents.of(journal).of(RecordType.INTENT)).hasSize(2);
        // strace is how we prove "no network connection attempted": not one inet connect from any thread
        org.junit.jupiter.api.Assumptions.assumeTrue(strace, "strace is not installed (.ci/run installs it)");
        String connects = Files.readString(trace);
        assertThat(connects.lines().filter(l -> l.contains("AF_INET"))).as("inet connects:\n" + connects).isEmpty();
    }

    @EveryJdk
    void keyIsTheIntentNotThePayload(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger().watchJournal(journal)) {
            ForkedApp app = forked(jdk, journal).main(CoreApp.class, "keys").sysprop("ledger", ledger.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(60));
            Map<String, String> r = app.results();
            JournalContents j = JournalContents.of(journal);

            List<JournalRecord> emails = j.forCall("send_email");
            assertThat(emails).extracting(JournalRecord::intentKey).containsOnly(emails.get(0).intentKey());
            assertThat(emails.get(0).intentKey()).matches("[0-9a-f]{32}");
            // the rephrased retry is the same intent: one effect, two equal ok answers
            assertThat(ledger.effects("send_email", emails.get(0).intentKey())).isEqualTo(1);
            assertThat(r.get("rephrased")).isEqualTo(r.get("first")).startsWith("done:send_email:");

            List<String> reminderKeys = j.forCall("send_reminder").stream().filter(x -> x.type() == RecordType.INTENT)
                    .map(JournalRecord::intentKey).toList();
            assertThat(reminderKeys).hasSize(2).doesNotHaveDuplicates();

            // @Redact: fingerprint in the record, plaintext nowhere on disk
            assertThat(emails.stream().filter(x -> x.type() == RecordType.INTENT).findFirst().orElseThrow().args())
                    .contains("hmac:").doesNotContain("hunter2");
            assertThat(rawJournalText(journal)).doesNotContain("hunter2-secret");

            assertThat(r.get("void")).isEqualTo("returned");
            assertThat(r.get("outcome")).startsWith("OUTCOME {\"outcome\":\"ok\"").endsWith("value=done:create_order:"
                    + j.forCall("create_order").get(0).intentKey());
        }
    }

    @EveryJdk
    void intentIsOnDiskBeforeTheEffectAndOutcomeAfter(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger().watchJournal(journal)) {
            forked(jdk, journal).main(CoreApp.class, "keys").sysprop("ledger", ledger.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(60));
            JournalContents j = JournalContents.of(journal);
            List<JournalRecord> intents = j.of(RecordType.INTENT);
            assertThat(intents).isNotEmpty();
            for (JournalRecord intent : intents) {
                assertThat(ledger.intentSeenBeforeEffect(intent.intentKey()))
                        .as("intent of %s on disk when its effect arrived", intent.call()).isTrue();
                int at = j.records().indexOf(intent);
                assertThat(j.records().subList(at, j.records().size()))
                        .anyMatch(o -> o.type() == RecordType.OUTCOME && intent.attemptId().equals(o.attemptId()));
            }
        }
    }

    @EveryJdk
    void exceptionsBecomeClosedOutcomes(Jdk jdk) throws Exception {
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = forked(jdk, journal()).main(CoreApp.class, "classify").sysprop("ledger", ledger.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(90)).results();
            assertThat(r.get("connect_refused")).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"");
            assertThat(r.get("read_timeout")).startsWith("THROWN {\"outcome\":\"unknown\",\"effect_applied\":\"unknown\"");
            assertThat(r.get("status_200")).isEqualTo("200");
            assertThat(r.get("status_400")).contains("\"outcome\":\"permanent\"", "\"effect_applied\":\"no\"");
            assertThat(r.get("status_408")).contains("\"outcome\":\"retryable\"", "\"effect_applied\":\"no\"");
            assertThat(r.get("status_429")).contains("\"outcome\":\"retryable\"", "\"retry_after_s\":30");
            assertThat(r.get("status_503")).contains("\"outcome\":\"retryable\"", "\"retry_after_s\":30");
            assertThat(r.get("status_500")).contains("\"outcome\":\"unknown\"", "\"effect_applied\":\"unknown\"");
            assertThat(r.get("illegal_argument")).contains("\"outcome\":\"permanent\"", "quantity must be positive");
            assertThat(r.get("unclassified")).contains("\"outcome\":\"unknown\"", "\"effect_applied\":\"unknown\"");
            assertThat(r.get("checked")).as("a checked exception never escapes as itself").startsWith("THROWN ");
            assertThat(r.get("outcome_refused")).startsWith("OUTCOME {\"outcome\":\"retryable\"");
            for (String v : r.values()) {
                if (v.startsWith("THROWN ")) {
                    assertThat(v).contains("\"intent_key\":\"", "\"attempt_id\":\"");
                }
            }
            JournalContents j = JournalContents.of(journal());
            assertThat(j.of(RecordType.OUTCOME)).extracting(JournalRecord::outcome)
                    .contains(OutcomeWord.OK, OutcomeWord.RETRYABLE, OutcomeWord.PERMANENT, OutcomeWord.UNKNOWN);
        }
    }

    @EveryJdk
    void badInputIsJournaledWithMarkersAndNothingCrashes(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        Map<String, String> r = forked(jdk, journal).main(CoreApp.class, "badinput")
                .run(tmp.resolve("logs"), Duration.ofSeconds(90)).results();
        assertThat(r).containsEntry("cyclic_arg", "stored:b-1").containsEntry("exploding_arg", "stored:b-2")
                .containsEntry("huge_arg", "stored:b-3").containsEntry("null_arg", "stored:b-4")
                .containsEntry("null_key", "stored:null").containsEntry("unserializable_result", "Cyclic")
                .containsEntry("still_running", "echo:after");
        assertThat(r.get("cyclic_key")).contains("\"outcome\":\"permanent\"", "\"effect_applied\":\"no\"", "target");
        JournalContents j = JournalContents.of(journal);
        Map<String, String> argsByKey = new java.util.HashMap<>();
        j.of(RecordType.INTENT).forEach(i -> argsByKey.put(i.args(), i.args()));
        assertThat(j.of(RecordType.INTENT).stream().map(JournalRecord::args))
                .anyMatch(a -> a.contains("$unserializable") && a.contains("HashMap"))
                .anyMatch(a -> a.contains("$unserializable") && a.contains("Exploding"))
                .anyMatch(a -> a.contains("$truncated"))
                .anyMatch(a -> a.contains("\"payload\":null"));
        assertThat(j.where(x -> "store_by_object".equals(x.call()) && x.type() == RecordType.INTENT))
                .as("a call refused for its key writes no intent").isEmpty();
        assertThat(j.forCall("unserializable_result")).anyMatch(x -> x.type() == RecordType.OUTCOME
                && OutcomeWord.OK == x.outcome() && x.result() == null && x.message().contains("not stored"));
    }

    @EveryJdk
    void journalThatCannotBeCreatedRefusesEffectsButTheAppRuns(Jdk jdk) throws Exception {
        Path notADir = Files.writeString(tmp.resolve("a-file"), "x");
        Path journal = notADir.resolve("journal");
        ForkedApp app = forked(jdk, journal).main(CoreApp.class, "journal-unavailable")
                .run(tmp.resolve("logs"), Duration.ofSeconds(60));
        Map<String, String> r = app.results();
        // a path under a file stays wrong however often the call is retried: permanent
        assertThat(r.get("effectful")).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"")
                .contains("journal unavailable", journal.toString());
        assertThat(r).containsEntry("read", "echo:r-1");
        assertThat(app.stdout()).contains("DONE");
        assertThat(app.stderr()).contains("effectful").contains(journal.toString());
    }

    private static String rawJournalText(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                sb.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }
}

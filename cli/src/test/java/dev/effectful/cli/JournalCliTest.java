package dev.effectful.cli;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.Effect;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.cli.TestJournals.Run;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.effectful.cli.TestJournals.K_CRASH;
import static dev.effectful.cli.TestJournals.K_OK;
import static dev.effectful.cli.TestJournals.K_PROBE_FAILED;
import static dev.effectful.cli.TestJournals.K_UNKNOWN;
import static dev.effectful.cli.TestJournals.cli;
import static org.assertj.core.api.Assertions.assertThat;

class JournalCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    Path dir;
    String d;

    @BeforeEach
    void journal() throws Exception {
        dir = tmp.resolve("journal");
        TestJournals.writeScenario(dir);
        d = dir.toString();
    }

    private static List<JsonNode> lines(String out) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                nodes.add(JSON.readTree(line));
            }
        }
        return nodes;
    }

    /** A journal in {@code dir} holding one call of task t, ok after {@code durationMs}. */
    private static void oneOkCall(Path dir, long durationMs) throws Exception {
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(TestJournals.intent("t", "send", "send", K_OK, 1, TestJournals.T0, "{}"));
            j.append(TestJournals.outcome("t", "send", "send", K_OK, 1, TestJournals.T0, "ok", "yes", "1", durationMs));
        }
    }

    @Test
    void tasksShowsOneAlignedLinePerTaskWithCounts() {
        Run r = cli("--dir", d, "tasks");
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        String[] lines = r.out().split("\n");
        assertThat(lines[0]).startsWith("TASK").contains("ATTEMPTS", "OK", "UNRESOLVED", "LAST ACTIVITY");
        // most recent first: ord-2 (3 intents, all unresolved), then ord-1 (2 intents, 1 ok)
        assertThat(lines[1]).startsWith("ord-2").matches(".*\\s3\\s+3\\s+0\\s+0\\s+3\\s.*");
        assertThat(lines[2]).startsWith("ord-1").matches(".*\\s2\\s+2\\s+1\\s+0\\s+0\\s.*");
        // aligned: the ATTEMPTS column ends at the same offset on every line
        int end = lines[0].indexOf("ATTEMPTS") + "ATTEMPTS".length();
        assertThat(lines[1].charAt(end - 1)).isEqualTo('3');
        assertThat(lines[2].charAt(end - 1)).isEqualTo('2');
        assertThat(r.out()).doesNotContain("\u001b[");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tasks", "unresolved", "show"})
    void anUnknownStoreKindIsAUsageErrorAndNeverAReadOfTheLocalJournal(String command) {
        Run r = command.equals("show") ? cli("--dir", d, "--store", "postgre", command, "ord-1")
                : cli("--dir", d, "--store", "postgre", command);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown store 'postgre' for --store: use local (this host's journal)");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void anEmptyJournalDirectoryVariableIsAUsageErrorNotTheDefaultDirectory() {
        Run r = cli(Map.of("EFFECTFUL_JOURNAL_DIR", ""), false, "tasks");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("EFFECTFUL_JOURNAL_DIR is set but empty", "--dir");
        assertThat(cli(Map.of("EFFECTFUL_JOURNAL_DIR", ""), false, "--dir", d, "tasks").code()).isZero();
    }

    @Test
    void tasksCountsApartWhatOnlyAPersonCanSettle() throws Exception {
        Path j2 = tmp.resolve("settling");
        try (ChronicleJournal j = ChronicleJournal.openWriter(j2, false, null, null)) {
            j.append(TestJournals.intent("t", "set_status", "idempotent", K_OK, 1, TestJournals.T0, "{}"));
            j.append(TestJournals.outcome("t", "set_status", "idempotent", K_OK, 1, TestJournals.T0, "unknown", "unknown", null, 5L));
            j.append(TestJournals.intent("t", "send_sms", "send", K_UNKNOWN, 1, TestJournals.T0 + 10, "{}"));
        }
        JsonNode t = lines(cli("--dir", j2.toString(), "--json", "tasks").out()).get(0);
        assertThat(t.get("unresolved").asInt()).isEqualTo(2);
        assertThat(t.get("needs_person").asInt()).as("the idempotent call settles on its next call").isEqualTo(1);
        assertThat(cli("--dir", j2.toString(), "tasks").out().split("\n")[0]).contains("FOR A PERSON");
        Run unresolved = cli("--dir", j2.toString(), "--json", "unresolved");
        assertThat(lines(unresolved.out()).stream().filter(n -> !n.get("settles_on_next_call").asBoolean()).count())
                .as("tasks and unresolved agree").isEqualTo(1);
    }

    @Test
    void tasksJsonIsOneDocumentPerLine() throws Exception {
        Run r = cli("--dir", d, "--json", "tasks");
        assertThat(r.code()).isZero();
        List<JsonNode> docs = lines(r.out());
        assertThat(docs).hasSize(2);
        JsonNode ord2 = docs.get(0);
        assertThat(ord2.get("task").asText()).isEqualTo("ord-2");
        assertThat(ord2.get("unresolved").asInt()).isEqualTo(3);
        assertThat(ord2.get("attempts").asInt()).isEqualTo(3);
        assertThat(ord2.get("actor").asText()).isEqualTo("agent-7");
        assertThat(ord2.get("last_activity").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*(Z|[+-]\\d\\d:\\d\\d)");
        assertThat(docs.get(1).get("ok").asInt()).isEqualTo(1);
    }

    @Test
    void showByTaskAndByKey() throws Exception {
        Run task = cli("--dir", d, "show", "ord-1");
        assertThat(task.code()).isZero();
        assertThat(task.out().split("\n")).hasSize(1 + 5);
        assertThat(task.out()).contains("intent", "outcome", "dedup", "send_email (send)", "120 ms", "result={\"id\":\"m-1\"}");
        assertThat(task.out()).containsPattern("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} [+-]\\d\\d:\\d\\d");

        Run key = cli("--dir", d, "--json", "show", K_UNKNOWN);
        assertThat(key.code()).isZero();
        List<JsonNode> docs = lines(key.out());
        assertThat(docs).extracting(n -> n.get("type").asText()).containsExactly("intent", "outcome");
        assertThat(docs.get(0).get("args").get("to").asText()).isEqualTo("+100");

        Run none = cli("--dir", d, "show", "nope");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err().strip()).doesNotContain("\n").contains("no task or intent key 'nope'");
    }

    @Test
    void unresolvedListsCrashUnknownAndFailedProbeWithExit3() throws Exception {
        Run r = cli("--dir", d, "unresolved");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.out()).contains(K_CRASH, K_UNKNOWN, K_PROBE_FAILED).doesNotContain(K_OK);
        assertThat(r.out()).contains("no-outcome", "unknown", "probe-failed", "create_order", "\"card\":\"hmac:9f2c…\"");
        // the operator's command, whole: the journal's absolute directory and a real key (the model is never told it)
        assertThat(r.out()).contains("journal --dir " + java.nio.file.Path.of(d).toAbsolutePath().normalize() + " resolve "
                + K_CRASH + " --applied yes --note", "--applied no if it did not apply");

        List<JsonNode> docs = lines(cli("--dir", d, "--json", "unresolved").out());
        assertThat(docs).extracting(n -> n.get("intent_key").asText()).containsExactly(K_CRASH, K_UNKNOWN, K_PROBE_FAILED);
        JsonNode crash = docs.get(0);
        assertThat(crash.get("state").asText()).isEqualTo("no-outcome");
        assertThat(crash.get("task").asText()).isEqualTo("ord-2");
        assertThat(crash.get("call").asText()).isEqualTo("create_order");
        assertThat(crash.get("attempt").asInt()).isEqualTo(1);
        assertThat(crash.get("args").isObject()).isTrue();
        assertThat(crash.get("args").get("sku").asText()).isEqualTo("X-1");
        assertThat(crash.get("age_s").asLong()).isPositive();
        assertThat(docs.get(1).get("attempt").asInt()).isEqualTo(2);
        assertThat(docs.get(2).get("probe").asText()).isEqualTo("failed");
    }

    @Test
    void aMistypedCommandIsAUsageErrorThatNamesTheNearestCommand() {
        Run r = cli("--dir", d, "taks");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("'taks'; did you mean: tasks");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unresolvedFooterSaysResolveWorksOnALiveJournal() {
        Run r = cli("--dir", d, "unresolved");
        assertThat(r.out()).contains("works while the agent runs").doesNotContain("process stopped");
    }

    @Test
    void unresolvedExitsZeroWhenNothingIsOpen() throws Exception {
        Path clean = tmp.resolve("clean");
        oneOkCall(clean, 3L);
        Run r = cli("--dir", clean.toString(), "unresolved");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("no unresolved intents");
        assertThat(cli("--dir", clean.toString(), "verify").code()).isZero();
    }

    @Test
    void aRefusalOrDedupWithoutItsIntentIsNotUnresolved() throws Exception {
        Path j2 = tmp.resolve("orphans");
        try (ChronicleJournal j = ChronicleJournal.openWriter(j2, false, null, null)) {
            // refused before it started (task budget spent), and a dedup whose intent retention deleted
            j.append(dev.effectful.core.journal.JournalRecord.of(RecordType.REFUSED).task("t").call("send").kind(Kind.SEND)
                    .intentKey(K_CRASH).started(TestJournals.T0).outcome(OutcomeWord.RETRYABLE).effectApplied(Effect.NO)
                    .message("task budget exhausted").build());
            j.append(dev.effectful.core.journal.JournalRecord.of(RecordType.DEDUP).task("t").call("send").kind(Kind.SEND)
                    .intentKey(K_UNKNOWN).started(TestJournals.T0).outcome(OutcomeWord.OK).effectApplied(Effect.YES).build());
        }
        Run r = cli("--dir", j2.toString(), "unresolved");
        assertThat(r.out()).contains("no unresolved intents");
        assertThat(r.code()).isZero();
    }

    @Test
    void exportWritesEveryRecordWithContractFieldsAndEmbeddedJson() throws Exception {
        Run r = cli("--dir", d, "export");
        assertThat(r.code()).isZero();
        List<JsonNode> docs = lines(r.out());
        assertThat(docs).hasSize(10);
        JsonNode first = docs.get(0);
        assertThat(first.get("type").asText()).isEqualTo("intent");
        assertThat(first.get("args").isObject()).isTrue();
        assertThat(first.get("args").get("to").asText()).isEqualTo("a@example.com");
        assertThat(first.get("started").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d)");
        assertThat(first.get("budget_left_s").asLong()).isEqualTo(60);
        assertThat(first.has("outcome")).isFalse(); // absent fields are omitted
        assertThat(first.has("result")).isFalse();
        JsonNode ok = docs.get(1);
        assertThat(ok.get("result").get("id").asText()).isEqualTo("m-1");
        assertThat(ok.get("effect_applied").asText()).isEqualTo("yes");
        assertThat(ok.get("duration_ms").asLong()).isEqualTo(120);
        assertThat(docs.get(4).get("retry_after_s").asLong()).isEqualTo(30);
        List<String> known = List.of("type", "task", "actor", "call", "kind", "intent_key", "attempt", "attempt_id",
                "started", "budget_left_s", "args", "outcome", "effect_applied", "retry_after_s", "deadline_left_s",
                "message", "result", "probe", "pid", "thread", "duration_ms");
        for (JsonNode n : docs) {
            n.fieldNames().forEachRemaining(f -> assertThat(known).contains(f));
        }
    }

    @Test
    void tailPrintsTheNewestRecordsOldestFirst() throws Exception {
        Run r = cli("--dir", d, "tail", "-n", "3");
        assertThat(r.code()).isZero();
        String[] lines = r.out().split("\n");
        assertThat(lines).hasSize(4);
        assertThat(lines[1]).contains("outcome", "send_sms");
        assertThat(lines[3]).contains("probe", "pay", "failed");

        List<JsonNode> docs = lines(cli("--dir", d, "--json", "tail", "-n", "100").out());
        assertThat(docs).hasSize(10);
        assertThat(docs.get(0).get("intent_key").asText()).isEqualTo(K_OK);
    }

    @Test
    void tailFollowPrintsRecordsAsTheyLand() throws Exception {
        Thread writer = new Thread(() -> {
            try {
                Thread.sleep(700);
                try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
                    j.append(TestJournals.intent("ord-3", "late_call", "send", "00000000000000000000000000000009", 1,
                            System.currentTimeMillis(), "{}"));
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        Run r = cli("--dir", d, "tail", "-n", "1", "--follow", "--for", "3");
        writer.join();
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("probe", "late_call");
        assertThat(r.out().indexOf("late_call")).isGreaterThan(r.out().indexOf("probe"));
    }

    @Test
    void verifyCountsTypesAndFlagsIntentsWithoutOutcome() throws Exception {
        Run r = cli("--dir", d, "verify");
        assertThat(r.code()).as("sound, but intents wait for a person").isEqualTo(3);
        assertThat(r.out()).contains("records", "intent", "without outcome", "waiting for a person", "1 intent(s) without outcome");

        JsonNode v = lines(cli("--dir", d, "--json", "verify").out()).get(0);
        assertThat(v.get("sound").asBoolean()).as("no damage").isTrue();
        assertThat(v.get("waiting_for_person")).isNotEmpty();
        assertThat(v.get("records").asLong()).isEqualTo(10);
        assertThat(v.get("types").get("intent").asLong()).isEqualTo(5);
        assertThat(v.get("types").get("outcome").asLong()).isEqualTo(3);
        assertThat(v.get("types").get("probe").asLong()).isEqualTo(1);
        assertThat(v.get("types").get("dedup").asLong()).isEqualTo(1);
        assertThat(v.get("without_outcome").asLong()).isEqualTo(1);
        assertThat(v.get("unknown").asLong()).isEqualTo(1);
        assertThat(v.get("probe_failed").asLong()).isEqualTo(1);
        assertThat(v.get("unreadable").asLong()).isZero();
        assertThat(v.get("incomplete_tail").asBoolean()).isFalse();
        assertThat(v.get("writer_live").asBoolean()).isFalse();
    }

    @Test
    void aVerdictNoWriterTakesIsWithdrawnAndNothingChanges() throws Exception {
        // a live lock holder that runs no engine (an older agent, or a stuck one): nobody records it
        try (JournalLock lock = JournalLock.acquire(dir)) {
            Run r = cli("--dir", d, "resolve", K_CRASH, "--applied", "yes", "--wait", "1");
            assertThat(r.code()).isEqualTo(4);
            assertThat(r.err().strip()).doesNotContain("\n")
                    .contains("not recorded", "pid " + ProcessHandle.current().pid(), "withdrawn", "nothing changed");
            assertThat(ResolutionRequest.file(dir, K_CRASH)).as("never applied later, unexpectedly").doesNotExist();
        }
        assertThat(cli("--dir", d, "--json", "export").out().lines().count()).isEqualTo(10);
    }

    @Test
    void resultGoesIntoTheResolutionRecordAndMustBeJsonWithAppliedYes() throws Exception {
        Run r = cli("--dir", d, "resolve", K_CRASH, "--applied", "yes", "--result", "{ \"id\" : 5512 }");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("returns ok with the value you gave");
        List<JsonNode> records = lines(cli("--dir", d, "--json", "show", K_CRASH).out());
        assertThat(records.get(records.size() - 1).get("result")).isEqualTo(JSON.readTree("{\"id\":5512}"));

        Run notJson = cli("--dir", d, "resolve", K_UNKNOWN, "--applied", "yes", "--result", "receipt-42");
        assertThat(notJson.code()).isEqualTo(2);
        assertThat(notJson.err().strip()).doesNotContain("\n").contains("--result is not JSON", "'\"receipt-42\"'");
        Run withNo = cli("--dir", d, "resolve", K_UNKNOWN, "--applied", "no", "--result", "1");
        assertThat(withNo.code()).isEqualTo(2);
        assertThat(withNo.err()).contains("only goes with --applied yes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tasks", "show ord-1", "unresolved", "export", "verify"})
    void jsonAndDirWorkAfterTheCommandToo(String command) throws Exception {
        List<String> before = new ArrayList<>(List.of("--dir", d, "--json"));
        before.addAll(List.of(command.split(" ")));
        List<String> after = new ArrayList<>(List.of(command.split(" ")));
        after.addAll(List.of("--json", "--dir", d));
        Run first = cli(before.toArray(String[]::new));
        Run last = cli(after.toArray(String[]::new));
        assertThat(last.code()).as(last.err()).isEqualTo(first.code());
        assertThat(last.err()).doesNotContain("Unknown option");
        assertThat(lines(last.out())).isNotEmpty().allMatch(JsonNode::isObject);
        assertThat(lines(last.out()).size()).isEqualTo(lines(first.out()).size());
    }

    @Test
    void topLevelHelpGivesEveryCommandsWholeDescription() {
        String help = cli("--help").out().replaceAll("\\s+", " ");
        for (Class<?> command : List.of(VerifyCommand.class, ResolveCommand.class, UnresolvedCommand.class)) {
            String description = String.join(" ",
                    command.getAnnotation(picocli.CommandLine.Command.class).description()).replaceAll("\\s+", " ");
            assertThat(help).as(command.getSimpleName()).contains(description);
        }
    }

    @Test
    void showPrintsAnOutcomeAtTheMomentItsAttemptEnded() throws Exception {
        Path slow = tmp.resolve("slow");
        oneOkCall(slow, 61_000L);
        String[] rows = cli("--dir", slow.toString(), "show", "t").out().split("\n");
        java.time.ZoneId zone = java.time.ZoneId.systemDefault();
        assertThat(rows[1]).startsWith(Times.human(TestJournals.T0, zone)).contains("intent");
        assertThat(rows[2]).startsWith(Times.human(TestJournals.T0 + 61_000L, zone)).contains("outcome", "1 m 01 s");
    }

    @Test
    void aShortenedKeyAsTablesPrintItNamesItsIntentWhenItIsTheOnlyOne() throws Exception {
        Run shown = cli("--dir", d, "--json", "show", K_CRASH.substring(0, 8) + "…");
        assertThat(shown.code()).as(shown.err()).isZero();
        assertThat(lines(shown.out())).isNotEmpty().allSatisfy(n -> assertThat(n.get("intent_key").asText()).isEqualTo(K_CRASH));

        Run ambiguous = cli("--dir", d, "show", "0000000000");
        assertThat(ambiguous.code()).isEqualTo(2);
        assertThat(ambiguous.err()).contains("starts more than one intent key", K_UNKNOWN, K_PROBE_FAILED, "give more digits");

        Run tooShort = cli("--dir", d, "resolve", "fedcb", "--applied", "no");
        assertThat(tooShort.code()).as("five digits are not a handle").isEqualTo(2);

        Run resolved = cli("--dir", d, "resolve", K_CRASH.substring(0, 8), "--applied", "yes", "--note", "found it");
        assertThat(resolved.code()).as(resolved.err()).isZero();
        assertThat(resolved.err()).contains(K_CRASH.substring(0, 8) + " is intent " + K_CRASH);
        assertThat(resolved.out()).contains("resolved " + K_CRASH);
    }

    @Test
    void resolveRecordsAVerdictAndTheIntentIsNoLongerUnresolved() throws Exception {
        Run r = cli("--dir", d, "resolve", K_CRASH, "--applied", "yes", "--note", "order 5512 exists in the shop");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("resolved " + K_CRASH, "effect applied yes", "returns ok");

        List<JsonNode> unresolved = lines(cli("--dir", d, "--json", "unresolved").out());
        assertThat(unresolved).extracting(n -> n.get("intent_key").asText()).containsExactly(K_UNKNOWN, K_PROBE_FAILED);

        List<JsonNode> records = lines(cli("--dir", d, "--json", "show", K_CRASH).out());
        JsonNode res = records.get(records.size() - 1);
        assertThat(res.get("type").asText()).isEqualTo("resolution");
        assertThat(res.get("effect_applied").asText()).isEqualTo("yes");
        assertThat(res.get("message").asText()).isEqualTo("order 5512 exists in the shop");
        assertThat(res.get("task").asText()).isEqualTo("ord-2");
        assertThat(res.get("call").asText()).isEqualTo("create_order");
        assertThat(res.get("kind").asText()).isEqualTo("create");

        Run no = cli("--dir", d, "resolve", K_UNKNOWN, "--applied", "no");
        assertThat(no.code()).isZero();
        assertThat(no.out()).contains("runs its body again (attempt 3)");

        Run tasks = cli("--dir", d, "--json", "tasks");
        assertThat(lines(tasks.out()).get(0).get("unresolved").asInt()).isEqualTo(1);
        assertThat(lines(tasks.out()).get(0).get("ok").asInt()).isEqualTo(1);
    }

    @Test
    void resolveRefusesUnknownKeysAndSettledIntents() {
        Run unknownKey = cli("--dir", d, "resolve", "ffffffffffffffffffffffffffffffff", "--applied", "no");
        assertThat(unknownKey.code()).isEqualTo(2);
        assertThat(unknownKey.err()).contains("no intent with key");

        Run settled = cli("--dir", d, "resolve", K_OK, "--applied", "no");
        assertThat(settled.code()).isEqualTo(4);
        assertThat(settled.err()).contains("is ok, not unresolved", "--force");

        assertThat(cli("--dir", d, "resolve", K_OK, "--applied", "no", "--force").code()).isZero();

        Run badValue = cli("--dir", d, "resolve", K_CRASH, "--applied", "maybe");
        assertThat(badValue.code()).isEqualTo(2);
        assertThat(badValue.err().strip()).doesNotContain("\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tasks", "show", "unresolved", "tail", "export", "resolve", "verify"})
    void everyCommandHasHelp(String command) {
        Run r = cli(command, "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Usage:", command);
    }

    @Test
    void topLevelHelpListsCommandsAndExitCodes() {
        Run r = cli("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("tasks", "show", "unresolved", "tail", "export", "resolve", "verify", "Exit codes", "NO_COLOR");
        assertThat(cli().code()).isEqualTo(2);
        Run bogus = cli("frobnicate");
        assertThat(bogus.code()).isEqualTo(2);
        assertThat(bogus.err().strip()).doesNotContain("\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tasks", "unresolved", "export", "verify", "tail", "show x", "resolve " + K_OK + " --applied yes"})
    void aMissingDirectoryIsOneLineAndExit2(String command) {
        List<String> args = new ArrayList<>(List.of("--dir", tmp.resolve("nowhere").toString()));
        args.addAll(List.of(command.split(" ")));
        Run r = cli(args.toArray(String[]::new));
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).doesNotContain("\n").contains("does not exist");
    }

    @Test
    void aDirectoryOfOtherFilesIsNotAJournal() throws Exception {
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("notes.txt"), "hello");
        Run r = cli("--dir", other.toString(), "tasks");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).doesNotContain("\n").contains("not an Effectful journal directory");
        Run file = cli("--dir", other.resolve("notes.txt").toString(), "verify");
        assertThat(file.code()).isEqualTo(2);
        assertThat(file.err()).contains("not a directory");
    }

    @Test
    void dirDefaultsToTheEnvironment() {
        Run r = cli(Map.of("EFFECTFUL_JOURNAL_DIR", d), false, "--json", "tasks");
        assertThat(r.code()).isZero();
        assertThat(r.out().lines().count()).isEqualTo(2);
    }

    @Test
    void colourOnlyOnATerminalAndNeverWithNoColor() {
        assertThat(cli(Map.of(), true, "--dir", d, "unresolved").out()).contains("\u001b[");
        assertThat(cli(Map.of("NO_COLOR", "1"), true, "--dir", d, "unresolved").out()).doesNotContain("\u001b[");
        assertThat(cli(Map.of(), false, "--dir", d, "unresolved").out()).doesNotContain("\u001b[");
    }

    @Test
    void controlCharactersInJournalTextCannotReachTheTerminal() throws Exception {
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(dev.effectful.core.journal.JournalRecord.of(RecordType.OUTCOME).task("ord-1").intentKey(K_OK)
                    .call("x").outcome(OutcomeWord.OK).message("evil \u001b]0;pwned\u0007 text\nsecond line").build());
        }
        Run r = cli("--dir", d, "show", "ord-1");
        assertThat(r.out()).doesNotContain("\u001b").doesNotContain("\u0007").contains("evil \\u001b]0;pwned\\u0007 text second line");
    }
}

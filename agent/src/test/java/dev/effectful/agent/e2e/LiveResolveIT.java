package dev.effectful.agent.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.effectful.agent.e2e.apps.LiveResolveApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ResolutionRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person's verdict without stopping production. One writer JVM with the real agent
 * stays up throughout; a MONEY call without a probe times out (unknown, its effect landed at the
 * loopback ledger) and is then held; {@code journal resolve} runs as a separate process against
 * the live journal, and the same writer's next call of that intent acts on the verdict.
 */
class LiveResolveIT {

    /** The operator's command as the verbose hold message names it. */
    private static final Pattern PASTE = Pattern.compile("run: (java -jar .*?) \\(or --applied no");
    /** The operator's command as {@code journal unresolved} prints it. */
    private static final Pattern UNRESOLVED_PASTE = Pattern.compile("(?m)^  (java -jar .* resolve \\S+ --applied yes .*)$");

    @TempDir
    Path tmp;

    /** The writer, stepped through control files. */
    private SteppedApp writer(Path journal, EffectLedger ledger) throws Exception {
        return writer(journal, ledger, "short");
    }

    private SteppedApp writer(Path journal, EffectLedger ledger, String heldMessage) throws Exception {
        ControlFiles ctl = ControlFiles.create(tmp.resolve("ctl"));
        return new SteppedApp(ForkedApp.jdk(Jdk.current()).main(LiveResolveApp.class)
                .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url()).sysprop("ctl", ctl.dir())
                .sysprop("effectful.held.message", heldMessage)
                .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"))
                .start(tmp.resolve("logs")), ctl);
    }

    /** Times out once (unknown, effect landed), then held: returns the hold's outcome. */
    private static JsonNode heldUnknown(SteppedApp w, EffectLedger ledger, String verb, String command, String id)
            throws Exception {
        JsonNode first = SteppedApp.outcome(w.run(command + " " + id));
        assertThat(first.get("outcome").asText()).as(first.toString()).isEqualTo("unknown");
        assertThat(ledger.effects(verb, id)).as("the effect landed before the timeout").isEqualTo(1);
        JsonNode held = SteppedApp.outcome(w.run(command + " " + id));
        assertThat(held.get("outcome").asText()).isEqualTo("unknown");
        assertThat(held.get("message").asText()).contains("held until a person resolves it");
        assertThat(held.has("attempt_id")).as("the body did not run again").isFalse();
        assertThat(ledger.effects(verb, id)).isEqualTo(1);
        return held;
    }

    private static List<JournalRecord> ofKey(Path journal, String key) throws Exception {
        return JournalContents.of(journal).where(r -> key.equals(r.intentKey()));
    }

    @Test
    void aVerdictOnALiveJournalTakesEffectAtTheWritersNextCall() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger(); SteppedApp w = writer(journal, ledger)) {
            // --applied yes with a note: ok at the next call, body not run, the note in the message
            String key = heldUnknown(w, ledger, "transfer", "transfer", "a").get("intent_key").asText();
            CliRun yes = CliRun.journal(journal, "resolve", key, "--applied", "yes", "--note", "checked the bank");
            assertThat(yes.exitCode()).as(yes.toString()).isZero();
            assertThat(yes.stdout()).contains("resolved " + key, "recorded by the running writer (pid " + w.app().pid() + ")");
            List<JournalRecord> recorded = ofKey(journal, key);
            JournalRecord resolution = recorded.get(recorded.size() - 1);
            assertThat(resolution.type()).isEqualTo(RecordType.RESOLUTION);
            assertThat(resolution.pid()).as("appended by the writer itself").isEqualTo(w.app().pid());
            assertThat(resolution.message()).isEqualTo("checked the bank");
            assertThat(ResolutionRequest.dir(journal)).as("no request left behind").isEmptyDirectory();

            JsonNode repeat = SteppedApp.outcome(w.run("transfer a"));
            assertThat(repeat.get("outcome").asText()).isEqualTo("ok");
            assertThat(repeat.get("effect_applied").asText()).isEqualTo("yes");
            assertThat(repeat.get("message").asText()).contains("resolved", "by a person", "checked the bank")
                    .doesNotContain("serialized");
            assertThat(ledger.effects("transfer", "a")).as("body not run again").isEqualTo(1);
            JournalRecord dedup = ofKey(journal, key).get(ofKey(journal, key).size() - 1);
            assertThat(dedup.type()).isEqualTo(RecordType.DEDUP);
            assertThat(dedup.message()).contains("checked the bank");

            // the model is told what happened and what to tell the user: no command, no path, no journal directory
            JsonNode held = heldUnknown(w, ledger, "transfer", "transfer", "e");
            String told = held.toString();
            assertThat(told).contains("do not retry", "tell the user it is being checked")
                    .doesNotContain("java -jar", "journal resolve", "--applied", "--dir", ForkedApp.AGENT_JAR.getFileName().toString(),
                            journal.toAbsolutePath().toString(), tmp.toString());
            // the operator gets the command from journal unresolved, pasted into a shell as it stands
            CliRun unresolved = CliRun.journal(journal, "unresolved");
            assertThat(unresolved.exitCode()).as(unresolved.toString()).isEqualTo(3);
            Matcher m = UNRESOLVED_PASTE.matcher(unresolved.stdout());
            assertThat(m.find()).as(unresolved.stdout()).isTrue();
            String pasted = m.group(1);
            assertThat(pasted).contains("resolve " + held.get("intent_key").asText(), ForkedApp.AGENT_JAR.toString(),
                    "--dir " + journal.toAbsolutePath());
            // and from the application's log (stderr here: the writer has no SLF4J), in the held intent's WARN line
            assertThat(w.app().stderr()).contains("effectful held call=transfer", pasted);
            assertThat(pasted).contains(ForkedApp.AGENT_JAR.toString(), "--dir " + journal.toAbsolutePath());
            ProcessBuilder shell = new ProcessBuilder("sh", "-c", pasted).directory(tmp.toFile())
                    .redirectOutput(tmp.resolve("paste-out.txt").toFile()).redirectError(tmp.resolve("paste-err.txt").toFile());
            shell.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator
                    + System.getenv("PATH"));
            Process p = shell.start();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(pasted + "\n" + Files.readString(tmp.resolve("paste-err.txt"))).isZero();
            assertThat(SteppedApp.outcome(w.run("transfer e")).get("outcome").asText()).isEqualTo("ok");
            assertThat(ledger.effects("transfer", "e")).isEqualTo(1);

            // --applied no: the next call runs the body (attempt 2)
            String no = heldUnknown(w, ledger, "transfer", "transfer", "d").get("intent_key").asText();
            w.run("hang off");
            CliRun applied = CliRun.journal(journal, "resolve", no, "--applied", "no", "--note", "the bank has nothing");
            assertThat(applied.exitCode()).as(applied.toString()).isZero();
            assertThat(w.run("transfer d")).isEqualTo("done:transfer:d");
            assertThat(ledger.effects("transfer", "d")).as("the body ran again").isEqualTo(2);
            assertThat(w.app().stdout()).doesNotContain("DONE");
        }
    }

    @Test
    void theVerboseFormStillPutsTheOperatorsCommandInTheAnswer() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger(); SteppedApp w = writer(journal, ledger, "operator")) {
            JsonNode held = heldUnknown(w, ledger, "transfer", "transfer", "v");
            Matcher m = PASTE.matcher(held.get("message").asText());
            assertThat(m.find()).as(held.get("message").asText()).isTrue();
            assertThat(m.group(1)).contains(ForkedApp.AGENT_JAR.toString(), "--dir " + journal.toAbsolutePath(),
                    "resolve " + held.get("intent_key").asText());
        }
    }

    @Test
    void aResultGivenByThePersonIsWhatTheRepeatReturnsAndAWrongTypeIsRefused() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger(); SteppedApp w = writer(journal, ledger)) {
            String key = heldUnknown(w, ledger, "transfer", "transfer", "b").get("intent_key").asText();
            CliRun given = CliRun.journal(journal, "resolve", key, "--applied", "yes", "--result", "\"receipt-42\"",
                    "--note", "receipt from the bank");
            assertThat(given.exitCode()).as(given.toString()).isZero();
            assertThat(w.run("transfer b")).as("exactly the value given").isEqualTo("receipt-42");
            assertThat(ledger.effects("transfer", "b")).isEqualTo(1);

            // an object for an int tool: refused at resolve time (the writer knows the tool), nothing recorded
            String count = heldUnknown(w, ledger, "payout_count", "count", "c").get("intent_key").asText();
            CliRun wrong = CliRun.journal(journal, "resolve", count, "--applied", "yes", "--result", "{\"n\":1}");
            assertThat(wrong.exitCode()).as(wrong.toString()).isEqualTo(4);
            assertThat(wrong.stderr().strip()).doesNotContain("\n")
                    .contains("refused by the writer", "does not fit int", "payout_count");
            assertThat(ofKey(journal, count)).noneMatch(r -> r.type() == RecordType.RESOLUTION);
            JsonNode still = SteppedApp.outcome(w.run("count c"));
            assertThat(still.get("outcome").asText()).as("still held").isEqualTo("unknown");

            CliRun right = CliRun.journal(journal, "resolve", count, "--applied", "yes", "--result", "3");
            assertThat(right.exitCode()).as(right.toString()).isZero();
            assertThat(w.run("count c")).isEqualTo("3");
            assertThat(ledger.effects("payout_count", "c")).isEqualTo(1);
        }
    }

    @Test
    void withNoWriterRunningAResultThatCanNeverBeTheToolsIsRefusedBeforeAnythingIsRecorded() throws Exception {
        Path journal = tmp.resolve("journal");
        String count;
        String transfer;
        try (EffectLedger ledger = new EffectLedger(); SteppedApp w = writer(journal, ledger)) {
            count = heldUnknown(w, ledger, "payout_count", "count", "d").get("intent_key").asText();
            transfer = heldUnknown(w, ledger, "transfer", "transfer", "e").get("intent_key").asText();
        } // the writer is killed: resolve appends by itself now
        CliRun object = CliRun.journal(journal, "resolve", count, "--applied", "yes", "--result", "{\"n\":1}");
        assertThat(object.exitCode()).as(object.toString()).isEqualTo(2);
        assertThat(object.stderr()).contains("does not fit payout_count", "a number", "nothing was recorded");
        CliRun list = CliRun.journal(journal, "resolve", transfer, "--applied", "yes", "--result", "[\"r-1\"]");
        assertThat(list.exitCode()).as(list.toString()).isEqualTo(2);
        assertThat(list.stderr()).contains("does not fit transfer", "a string");
        assertThat(ofKey(journal, count)).noneMatch(r -> r.type() == RecordType.RESOLUTION);
        assertThat(ofKey(journal, transfer)).noneMatch(r -> r.type() == RecordType.RESOLUTION);

        CliRun right = CliRun.journal(journal, "resolve", count, "--applied", "yes", "--result", "3");
        assertThat(right.exitCode()).as(right.toString()).isZero();
        assertThat(ofKey(journal, count)).anyMatch(r -> r.type() == RecordType.RESOLUTION && "3".equals(r.result()));
    }
}

package dev.effectful.agent.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.agent.e2e.apps.ApprovalApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Approvals end to end, in forked JVMs with the real agent jar and a loopback ledger that counts every
 * effect: the first call of an intent that needs approval is told to wait and nothing runs; every repeat
 * (rephrased, from another thread, after a kill -9 and a restart) waits on that one request; approved, a
 * rephrased retry runs the body once and the next rephrasing gets the stored result; denied, every call
 * is refused for good with the person's note; with no verdict in time, it expires.
 */
class ApprovalIT extends ForkedJvmTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One writer JVM, stepped through control files; closing it is a kill -9, and a new one on the same journal a restart. */
    private SteppedApp writer(Path journal, EffectLedger ledger, String name, String... sysprops) throws Exception {
        ControlFiles ctl = ControlFiles.create(tmp.resolve("ctl-" + name));
        ForkedApp f = ForkedApp.jdk(Jdk.current()).main(ApprovalApp.class)
                .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url()).sysprop("ctl", ctl.dir())
                .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"));
        for (int i = 0; i + 1 < sysprops.length; i += 2) {
            f = f.sysprop(sysprops[i], sysprops[i + 1]);
        }
        return new SteppedApp(f.start(tmp.resolve("logs-" + name)), ctl);
    }

    /** The writer asked {@code command}: refused, told to wait for a person's approval. Its outcome. */
    private static JsonNode waiting(SteppedApp w, String command) throws Exception {
        JsonNode o = w.refused(command);
        assertWaiting(o);
        return o;
    }

    private static void assertWaiting(JsonNode o) {
        assertThat(o.get("outcome").asText()).as(o.toString()).isEqualTo("retryable");
        assertThat(o.get("effect_applied").asText()).isEqualTo("no");
        assertThat(o.get("retry_after_s").asLong()).isPositive();
        assertThat(o.get("message").asText()).contains("a person must approve this first");
        assertThat(o.has("attempt_id")).as("no body ran").isFalse();
    }

    private static List<JournalRecord> ofKey(Path journal, String key, RecordType type) throws Exception {
        return JournalContents.of(journal).where(r -> key.equals(r.intentKey()) && r.type() == type);
    }

    @Test
    void anApprovalSurvivesKillAndRestartAndARephrasedRetryRunsTheBodyOnce() throws Exception {
        Path journal = tmp.resolve("journal");
        String key;
        try (EffectLedger ledger = new EffectLedger()) {
            try (SteppedApp first = writer(journal, ledger, "first")) {
                JsonNode asked = waiting(first, "charge o1 please charge 40 EUR");
                key = asked.get("intent_key").asText();
                JsonNode rephrased = waiting(first, "charge o1 charge the customer forty euros");
                assertThat(rephrased.get("intent_key").asText()).isEqualTo(key);
                assertThat(rephrased.get("message").asText()).contains("still pending");

                // the person's list, read beside the live writer: what they approve, never the secret in plaintext
                CliRun list = CliRun.journal(journal, "approvals");
                assertThat(list.exitCode()).as(list.toString()).isEqualTo(3);
                assertThat(list.stdout()).contains("t-approval", "alice", "charge", "money", key.substring(0, 8),
                        "please charge 40 EUR", "hmac:").doesNotContain(ApprovalApp.CARD);
                CliRun json = CliRun.journal(journal, "--json", "approvals");
                JsonNode row = JSON.readTree(json.stdout().lines().findFirst().orElseThrow());
                assertThat(row.get("intent_key").asText()).isEqualTo(key);
                assertThat(row.get("actor").asText()).isEqualTo("alice");
                assertThat(row.get("args").get("memo").asText()).isEqualTo("please charge 40 EUR");
                assertThat(row.get("args").get("cardToken").asText()).startsWith("hmac:");
                CliRun unresolved = CliRun.journal(journal, "unresolved");
                assertThat(unresolved.exitCode()).as("an approval is not an unknown effect").isZero();
                assertThat(unresolved.stdout()).contains("Awaiting approval (1)", key.substring(0, 8));
                first.app().kill9();
            }
            assertThat(ofKey(journal, key, RecordType.APPROVAL_REQUESTED)).as("one request").hasSize(1);

            try (SteppedApp second = writer(journal, ledger, "second")) {
                assertWaiting(second.refused("charge o1 retrying after the restart"));
                assertThat(ofKey(journal, key, RecordType.APPROVAL_REQUESTED)).as("still one request after a restart")
                        .hasSize(1);
                CliRun approve = CliRun.journal(journal, "approve", key.substring(0, 10), "--note", "finance said yes",
                        "--by", "Bob");
                assertThat(approve.exitCode()).as(approve.toString()).isZero();
                assertThat(approve.stdout()).contains("approved " + key, "recorded by the running writer (pid "
                        + second.app().pid() + ")");
                second.app().kill9();
            }
            List<JournalRecord> verdicts = ofKey(journal, key, RecordType.APPROVAL);
            assertThat(verdicts).hasSize(1);
            assertThat(verdicts.get(0).verdict()).isEqualTo("approved");
            assertThat(verdicts.get(0).by()).contains("Bob", System.getProperty("user.name"));
            assertThat(verdicts.get(0).note()).isEqualTo("finance said yes");
            assertThat(verdicts.get(0).started()).as("when").isPositive();
            assertThat(ledger.effects("charge", "o1")).as("nothing ran before the approval").isZero();

            try (SteppedApp third = writer(journal, ledger, "third")) {
                assertThat(third.run("charge o1 third wording of the same charge")).isEqualTo("done:charge:o1");
                assertThat(third.run("charge o1 fourth wording")).as("the stored result").isEqualTo("done:charge:o1");
                assertThat(ledger.effects("charge", "o1")).as("the body ran once").isEqualTo(1);
            }
        }
    }

    @Test
    void withNoWriterRunningTheCliRecordsTheVerdictItselfAndTheNextWriterActsOnIt() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            String key;
            try (SteppedApp w = writer(journal, ledger, "before")) {
                key = w.refused("charge o5 charge it").get("intent_key").asText();
                w.app().kill9();
            }
            CliRun approve = CliRun.journal(journal, "approve", key, "--note", "checked offline");
            assertThat(approve.exitCode()).as(approve.toString()).isZero();
            assertThat(approve.stdout()).contains("approved " + key).doesNotContain("running writer");
            JournalRecord verdict = ofKey(journal, key, RecordType.APPROVAL).get(0);
            assertThat(verdict.thread()).isEqualTo("journal-cli");
            try (SteppedApp w = writer(journal, ledger, "after")) {
                assertThat(w.run("charge o5 charge it")).isEqualTo("done:charge:o5");
                assertThat(ledger.effects("charge", "o5")).isEqualTo(1);
            }
        }
    }

    @Test
    void twoThreadsAskingForTheSameIntentCreateOneRequest() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger(); SteppedApp w = writer(journal, ledger, "w")) {
            String both = w.run("twothreads o2");
            int b = both.indexOf(" B THROWN ");
            assertThat(both).as(both).startsWith("A THROWN ");
            assertThat(b).as(both).isPositive();
            JsonNode first = JSON.readTree(both.substring("A THROWN ".length(), b));
            JsonNode second = JSON.readTree(both.substring(b + " B THROWN ".length()));
            assertWaiting(first);
            assertWaiting(second);
            String key = first.get("intent_key").asText();
            assertThat(second.get("intent_key").asText()).isEqualTo(key);
            assertThat(ofKey(journal, key, RecordType.APPROVAL_REQUESTED)).hasSize(1);
            assertThat(ledger.effects("charge", "o2")).isZero();
        }
    }

    @Test
    void aDenialIsPermanentWithThePersonsNoteAndConfigurationAsksForApprovalByToolName() throws Exception {
        try (EffectLedger ledger = new EffectLedger();
             SteppedApp w = writer(journal(), ledger, "w", "effectful.approval", "refund")) {
            JsonNode asked = waiting(w, "refund o3 refund the whole order");
            String key = asked.get("intent_key").asText();
            CliRun deny = CliRun.journal(journal(), "deny", key, "--note", "customer already refunded by phone");
            assertThat(deny.exitCode()).as(deny.toString()).isZero();
            for (String memo : List.of("refund o3 please refund", "refund o3 refund again, different words")) {
                JsonNode denied = w.refused(memo);
                assertThat(denied.get("outcome").asText()).isEqualTo("permanent");
                assertThat(denied.get("effect_applied").asText()).isEqualTo("no");
                assertThat(denied.get("message").asText()).contains("denied", "customer already refunded by phone");
            }
            assertThat(ledger.effects("refund", "o3")).isZero();
            JournalRecord verdict = ofKey(journal(), key, RecordType.APPROVAL).get(0);
            assertThat(verdict.verdict()).isEqualTo("denied");
            assertThat(verdict.by()).isEqualTo(System.getProperty("user.name"));
            CliRun again = CliRun.journal(journal(), "approve", key, "--note", "changed my mind");
            assertThat(again.exitCode()).as("a verdict is final").isEqualTo(4);
        }
    }

    @Test
    void aRequestWithoutAVerdictExpiresAndSaysSo() throws Exception {
        try (EffectLedger ledger = new EffectLedger();
             SteppedApp w = writer(journal(), ledger, "w", "effectful.approval.timeout", "2s")) {
            JsonNode asked = waiting(w, "charge o4 charge it");
            assertThat(asked.get("retry_after_s").asLong()).as("never past the expiry").isLessThanOrEqualTo(2);
            String key = asked.get("intent_key").asText();
            long requested = ofKey(journal(), key, RecordType.APPROVAL_REQUESTED).get(0).started();
            // the expiry is a time: wait it out, bounded, then ask again
            while (System.currentTimeMillis() < requested + 2_000) {
                Thread.sleep(50);
            }
            JsonNode expired = w.refused("charge o4 charge it now");
            assertThat(expired.get("outcome").asText()).isEqualTo("permanent");
            assertThat(expired.get("effect_applied").asText()).isEqualTo("no");
            assertThat(expired.get("message").asText()).contains("expired");
            JsonNode still = w.refused("charge o4 once more");
            assertThat(still.get("outcome").asText()).isEqualTo("permanent");
            assertThat(still.get("message").asText()).contains("expired");
            List<JournalRecord> verdicts = ofKey(journal(), key, RecordType.APPROVAL);
            assertThat(verdicts).hasSize(1);
            assertThat(verdicts.get(0).verdict()).isEqualTo("expired");
            assertThat(ledger.effects("charge", "o4")).isZero();
        }
    }
}

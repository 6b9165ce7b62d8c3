package dev.effectful.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.cli.TestJournals.Run;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.effectful.cli.TestJournals.T0;
import static dev.effectful.cli.TestJournals.cli;
import static dev.effectful.cli.TestJournals.intent;
import static dev.effectful.cli.TestJournals.outcome;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI reads {@code key_sent} records: {@code show} and {@code export} print them with their header,
 * and {@code unresolved} counts an unknown whose attempt's key went out as settling on the next call
 * (the engine re-sends the same key), while the same tool's unknown without one waits for a person.
 */
class KeySentCliTest {

    private static final String K_SENT = "0000000000000000000000000000a001";
    private static final String K_UNSENT = "0000000000000000000000000000a002";
    private static final String K_EARLIER = "0000000000000000000000000000a003";

    @TempDir
    Path dir;

    private static JournalRecord keySent(String task, String call, String key, int attempt, long started) {
        return JournalRecord.of(RecordType.KEY_SENT).task(task).actor("agent-7").call(call).kind(Kind.MONEY)
                .intentKey(key).attempt(attempt).attemptId(task + "-" + key.substring(0, 8) + "-a" + attempt)
                .started(started).header("Idempotency-Key").build();
    }

    private void write() throws Exception {
        List<JournalRecord> j = new ArrayList<>();
        // the answer was lost after the key went out: the next call re-sends it
        j.add(tagged(intent("pay-1", "charge_card", "money", K_SENT, 1, T0, "{\"amount\":12}")));
        j.add(keySent("pay-1", "charge_card", K_SENT, 1, T0 + 1));
        j.add(outcome("pay-1", "charge_card", "money", K_SENT, 1, T0 + 10, "unknown", "unknown", null, 9L));
        // the same tool, its request through a client the agent does not cover: no key_sent
        j.add(tagged(intent("pay-2", "charge_card", "money", K_UNSENT, 1, T0 + 100, "{\"amount\":13}")));
        // attempt 1's key went out; attempt 2's (a crash right after its intent) did not
        j.add(tagged(intent("pay-3", "charge_card", "money", K_EARLIER, 1, T0 + 200, "{\"amount\":14}")));
        j.add(keySent("pay-3", "charge_card", K_EARLIER, 1, T0 + 201));
        j.add(outcome("pay-3", "charge_card", "money", K_EARLIER, 1, T0 + 210, "retryable", "no", null, 9L));
        j.add(tagged(intent("pay-3", "charge_card", "money", K_EARLIER, 2, T0 + 40_000, "{\"amount\":14}")));
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null)) {
            for (JournalRecord r : j) {
                journal.append(r);
            }
        }
    }

    /** As the engine writes a key-header tool's intent: it declares neither a probe nor keyable. */
    private static JournalRecord tagged(JournalRecord r) {
        return new JournalRecord(r.type(), r.task(), r.actor(), r.call(), r.kind(), r.intentKey(), r.attempt(),
                r.attemptId(), r.started(), r.budgetLeftS(), r.args(), r.outcome(), r.effectApplied(), r.retryAfterS(),
                r.deadlineLeftS(), r.message(), r.result(), r.probe(), r.pid(), r.thread(), r.durationMs(), r.item(), "-");
    }

    @Test
    void showAndExportPrintTheKeySentRecord() throws Exception {
        write();
        Run show = cli("--dir", dir.toString(), "show", "pay-1");
        assertThat(show.code()).isZero();
        assertThat(show.out()).contains("key_sent").contains("the intent key went out in header Idempotency-Key");

        Run export = cli("--dir", dir.toString(), "export");
        assertThat(export.code()).isZero();
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> sent = new ArrayList<>();
        for (String line : export.out().split("\n")) {
            if (!line.isBlank() && json.readTree(line).get("type").asText().equals("key_sent")) {
                sent.add(json.readTree(line));
            }
        }
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0).get("intent_key").asText()).isEqualTo(K_SENT);
        assertThat(sent.get(0).get("attempt_id").asText()).isEqualTo("pay-1-00000000-a1");
        assertThat(sent.get(0).get("header").asText()).isEqualTo("Idempotency-Key");
        assertThat(sent.get(0).get("attempt").asInt()).isEqualTo(1);
    }

    @Test
    void unresolvedHoldsOnlyWhatNoKeySentSettles() throws Exception {
        write();
        Run json = cli("--dir", dir.toString(), "--json", "unresolved");
        assertThat(json.code()).as("two wait for a person").isEqualTo(JournalCli.UNRESOLVED);
        ObjectMapper m = new ObjectMapper();
        java.util.Map<String, Boolean> settles = new java.util.HashMap<>();
        for (String line : json.out().split("\n")) {
            if (!line.isBlank()) {
                JsonNode n = m.readTree(line);
                settles.put(n.get("intent_key").asText(), n.get("settles_on_next_call").asBoolean());
            }
        }
        assertThat(settles).containsEntry(K_SENT, true).containsEntry(K_UNSENT, false)
                .as("attempt 2's key never went out").containsEntry(K_EARLIER, false);

        Run table = cli("--dir", dir.toString(), "unresolved");
        String person = table.out().substring(0, table.out().indexOf("Settle on next call"));
        assertThat(person).contains("pay-2").contains("pay-3").doesNotContain("pay-1");
        assertThat(table.out().substring(table.out().indexOf("Settle on next call"))).contains("pay-1");
    }
}

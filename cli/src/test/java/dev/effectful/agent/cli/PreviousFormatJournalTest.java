package dev.effectful.agent.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.effectful.agent.cli.TestJournals.Run;
import dev.effectful.runtime.journal.ChronicleJournal;
import dev.effectful.runtime.journal.JournalRecord;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import static dev.effectful.agent.cli.TestJournals.K_OK;
import static dev.effectful.agent.cli.TestJournals.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A journal written in the format before issue 21 (the intent key and the attempt id as text, every
 * closed word as its text, pid and thread on every record) reads in every command exactly as the
 * same records written today: the smaller format changed what is on disk, not what anyone reads.
 */
class PreviousFormatJournalTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void everyCommandPrintsTheSameForTheOldAndTheNewFormat() throws Exception {
        Path now = tmp.resolve("now");
        Path before = tmp.resolve("before");
        TestJournals.writeScenario(now);
        try (ChronicleJournal j = ChronicleJournal.openWriter(before, false, null, null);
             ExcerptAppender appender = j.queue().createAppender()) {
            for (JournalRecord r : TestJournals.scenario()) {
                try (DocumentContext dc = appender.writingDocument()) {
                    writePreviousFormat(r, dc.wire());
                }
            }
        }
        for (String[] command : new String[][] {{"tasks"}, {"show", "ord-1"}, {"show", K_OK}, {"unresolved"},
                {"--json", "unresolved"}, {"--json", "tasks"}, {"verify"}, {"tail", "-n", "4"}}) {
            Run a = cli(args(before, command));
            Run b = cli(args(now, command));
            // verify names the directory it read
            assertThat(a.out().replace(before.toString(), "DIR")).as(String.join(" ", command)).isNotBlank()
                    .isEqualTo(b.out().replace(now.toString(), "DIR"));
            assertThat(a.code()).isEqualTo(b.code());
        }
        List<ObjectNode> old = exported(before);
        List<ObjectNode> current = exported(now);
        assertThat(old).hasSize(10);
        for (int i = 0; i < old.size(); i++) {
            ObjectNode o = old.get(i);
            if (o.get("type").asText().equals("dedup")) {
                // the one difference: a dedup record no longer says which process and thread answered
                assertThat(o.has("pid")).isTrue();
                o.remove(List.of("pid", "thread"));
                assertThat(current.get(i).has("pid")).isFalse();
                assertThat(current.get(i).get("task").asText()).isEqualTo("ord-1");
            }
            assertThat(current.get(i)).as("export line " + i).isEqualTo(o);
        }
        assertThat(current.get(0).get("intent_key").asText()).isEqualTo(K_OK);
        assertThat(current.get(0).get("attempt_id").asText()).isEqualTo("ord-1-01234567-a1");
    }

    private static String[] args(Path dir, String[] command) {
        List<String> a = new ArrayList<>(List.of("--dir", dir.toString()));
        a.addAll(List.of(command));
        return a.toArray(String[]::new);
    }

    private static List<ObjectNode> exported(Path dir) throws Exception {
        Run r = cli("--dir", dir.toString(), "export");
        assertThat(r.code()).isZero();
        List<ObjectNode> out = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            if (!line.isBlank()) {
                out.add((ObjectNode) JSON.readTree(line));
            }
        }
        return out;
    }

    /**
     * The previous release's writer, field for field: numbered fields, every value as text or a
     * number, then the identity checksum (CRC32C over type, task, intent key and call, each char one
     * byte when ASCII else two, null as 0xFF, each followed by a 0) and the crc over all before it.
     */
    static void writePreviousFormat(JournalRecord r, Wire w) {
        Bytes<?> bytes = w.bytes();
        long start = bytes.writePosition();
        w.writeEventId(1).text(r.type().word());
        text(w, 2, r.task());
        text(w, 3, r.actor());
        text(w, 4, r.call());
        text(w, 5, r.kind() == null ? null : r.kind().word());
        text(w, 6, r.intentKey());
        if (r.attempt() != 0) {
            w.writeEventId(7).int32(r.attempt());
        }
        text(w, 8, r.attemptId());
        w.writeEventId(9).int64(r.started());
        number(w, 10, r.budgetLeftS());
        text(w, 11, r.args());
        text(w, 12, r.outcome() == null ? null : r.outcome().word());
        text(w, 13, r.effectApplied() == null ? null : r.effectApplied().word());
        number(w, 14, r.retryAfterS());
        number(w, 15, r.deadlineLeftS());
        text(w, 16, r.message());
        text(w, 17, r.result());
        text(w, 18, r.probe() == null ? null : r.probe().word());
        w.writeEventId(19).int64(r.pid());
        text(w, 20, r.thread());
        number(w, 21, r.durationMs());
        text(w, 22, r.item());
        text(w, 25, r.reentry());
        java.io.ByteArrayOutputStream id = new java.io.ByteArrayOutputStream();
        for (String v : new String[] {r.type().word(), r.task(), r.intentKey(), r.call()}) {
            if (v == null) {
                id.write(0xFF);
            } else {
                for (char c : v.toCharArray()) {
                    if (c < 0x80) {
                        id.write(c);
                    } else {
                        id.write(c >>> 8 | 0x80);
                        id.write(c & 0xFF);
                    }
                }
            }
            id.write(0);
        }
        CRC32C crc = new CRC32C();
        crc.update(id.toByteArray());
        w.writeEventId(23).fixedInt32((int) crc.getValue());
        byte[] all = new byte[(int) (bytes.writePosition() - start)];
        bytes.read(start, all, 0, all.length);
        crc.reset();
        crc.update(all);
        w.writeEventId(24).fixedInt32((int) crc.getValue());
    }

    private static void text(Wire w, int id, String v) {
        if (v != null) {
            w.writeEventId(id).text(v);
        }
    }

    private static void number(Wire w, int id, Long v) {
        if (v != null) {
            w.writeEventId(id).int64(v);
        }
    }
}

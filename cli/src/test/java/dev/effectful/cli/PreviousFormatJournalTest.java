package dev.effectful.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.effectful.cli.TestJournals.Run;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
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

import static dev.effectful.cli.TestJournals.K_OK;
import static dev.effectful.cli.TestJournals.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A journal written in the format before the compact one (the intent key and the attempt id as text, every
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
        Path before = samePrintsFor("before", PreviousFormatJournalTest::writePreviousFormat, now,
                new String[][] {{"tasks"}, {"show", "ord-1"}, {"show", K_OK}, {"unresolved"}, {"--json", "unresolved"}, {"--json", "tasks"},
                {"verify"}, {"tail", "-n", "4"}});
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

    @Test
    void everyCommandPrintsTheSameForTheFirstIssue21FormatAndTheNewOne() throws Exception {
        Path now = tmp.resolve("now");
        Path before = samePrintsFor("issue21-first", PreviousFormatJournalTest::writeFirstIssue21Format, now,
                new String[][] {{"tasks"},
                {"show", "ord-1"}, {"show", K_OK}, {"unresolved"}, {"--json", "unresolved"}, {"--json", "tasks"},
                {"verify"}, {"tail", "-n", "4"}, {"tail", "-n", "10"}, {"--json", "show", "ord-1"}});
        List<ObjectNode> old = exported(before);
        assertThat(old).hasSize(10);
        // nothing differs at all: that format already left a dedup's pid and thread out
        assertThat(exported(now)).isEqualTo(old);
    }

    /**
     * The test scenario written in {@code now} by today's writer and in {@code tmp/format} by {@code writer}: each
     * command prints the same for both (directory and ages aside), and ends the same. Returns the latter.
     */
    private Path samePrintsFor(String format, java.util.function.BiConsumer<JournalRecord, Wire> writer, Path now,
                               String[][] commands) throws Exception {
        Path before = tmp.resolve(format);
        TestJournals.writeScenario(now);
        write(before, writer);
        for (String[] command : commands) {
            Run a = cli(args(before, command));
            Run b = cli(args(now, command));
            assertThat(normal(a.out(), before)).as(String.join(" ", command)).isNotBlank()
                    .isEqualTo(normal(b.out(), now));
            assertThat(a.code()).isEqualTo(b.code());
        }
        return before;
    }

    private static void write(Path dir, java.util.function.BiConsumer<JournalRecord, Wire> writer) throws Exception {
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null);
             ExcerptAppender appender = j.queue().createAppender()) {
            for (JournalRecord r : TestJournals.scenario()) {
                try (DocumentContext dc = appender.writingDocument()) {
                    writer.accept(r, dc.wire());
                }
            }
        }
    }

    /**
     * verify names the directory it read; an age is counted from the clock at each run, and two runs
     * on a loaded machine can straddle a second
     */
    private static String normal(String out, Path dir) {
        return out.replace(dir.toString(), "DIR").replaceAll("\"age_s\":\\d+", "\"age_s\":N");
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
        tail(r, w, bytes, start);
    }

    /** What both earlier formats end with: duration, item, re-entry, then the checksums. */
    private static void tail(JournalRecord r, Wire w, Bytes<?> bytes, long start) {
        number(w, 21, r.durationMs());
        text(w, 22, r.item());
        text(w, 25, r.reentry());
        checksums(r, w, bytes, start);
    }

    /** The identity checksum, then the crc over every byte of the record before it. */
    private static void checksums(JournalRecord r, Wire w, Bytes<?> bytes, long start) {
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

    /**
     * The first compact format (the one the {@code head} field replaced), field for field: numbered
     * fields; type, kind, outcome, effect and probe each a field holding its one-byte code (the format's
     * fixed numbers, below); a 32-hex-digit key as the wire's UUID; the attempt as a field of its own; an
     * attempt id of the usual {@code task-keyprefix8-aN} shape as the wire's {@code true}; no pid or
     * thread on a dedup; every number as the wire writes it; then both checksums as above.
     */
    static void writeFirstIssue21Format(JournalRecord r, Wire w) {
        Bytes<?> bytes = w.bytes();
        long start = bytes.writePosition();
        code(w, 1, r.type().word(), "intent", "outcome", "probe", "dedup", "resolution", "refused");
        text(w, 2, r.task());
        text(w, 3, r.actor());
        text(w, 4, r.call());
        code(w, 5, r.kind() == null ? null : r.kind().word(), "read", "idempotent", "create", "send", "money",
                "destructive");
        String key = r.intentKey();
        if (key != null && key.matches("[0-9a-f]{32}")) {
            w.writeEventId(6).uuid(new java.util.UUID(Long.parseUnsignedLong(key.substring(0, 16), 16),
                    Long.parseUnsignedLong(key.substring(16), 16)));
        } else {
            text(w, 6, key);
        }
        if (r.attempt() != 0) {
            w.writeEventId(7).int32(r.attempt());
        }
        if (r.task() != null && key != null && key.length() >= 8 && r.attempt() >= 0
                && (r.task() + "-" + key.substring(0, 8) + "-a" + r.attempt()).equals(r.attemptId())) {
            w.writeEventId(8).bool(true);
        } else {
            text(w, 8, r.attemptId());
        }
        w.writeEventId(9).int64(r.started());
        number(w, 10, r.budgetLeftS());
        text(w, 11, r.args());
        code(w, 12, r.outcome() == null ? null : r.outcome().word(), "ok", "retryable", "permanent", "unknown");
        code(w, 13, r.effectApplied() == null ? null : r.effectApplied().word(), "yes", "no", "partial", "unknown");
        number(w, 14, r.retryAfterS());
        number(w, 15, r.deadlineLeftS());
        text(w, 16, r.message());
        text(w, 17, r.result());
        code(w, 18, r.probe() == null ? null : r.probe().word(), "found", "absent", "failed");
        if (!r.type().word().equals("dedup")) {
            w.writeEventId(19).int64(r.pid());
            text(w, 20, r.thread());
        }
        tail(r, w, bytes, start);
    }

    /** A closed word as its code: its position (from 1) among {@code words}, the format's table. */
    private static void code(Wire w, int id, String word, String... words) {
        if (word != null) {
            int code = List.of(words).indexOf(word) + 1;
            assertThat(code).as(word).isPositive();
            w.writeEventId(id);
            w.bytes().writeUnsignedByte(code);
        }
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

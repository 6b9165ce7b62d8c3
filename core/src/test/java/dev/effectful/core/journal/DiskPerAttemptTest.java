package dev.effectful.core.journal;

import dev.effectful.core.keys.IntentKeys;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The disk per attempt, pinned: the bench's attempt (an intent of {@code send_email} with three
 * small arguments and its ok outcome, as {@code bench/JournalGenerator} writes it) in a real Chronicle
 * journal on disk, document headers and alignment included. Bytes are deterministic, so this is a
 * size assertion, not a timing one.
 */
class DiskPerAttemptTest {

    private static final int ATTEMPTS = 2_000;

    @TempDir
    Path tmp;

    @Test
    void anAttemptTakesFewerThan300BytesOfJournal() throws Exception {
        double now = bytesPerAttempt(tmp.resolve("now"), RecordCodec::write);
        double before = bytesPerAttempt(tmp.resolve("before"), RecordCodecTest::writeFirstIssue21Format);
        assertThat(before).as("the format this one replaced (the bench's 314 B)").isGreaterThan(305);
        assertThat(now).as("the target is 300 B; the head and one-byte numbers make it 292 B")
                .isLessThanOrEqualTo(295);
    }

    private static double bytesPerAttempt(Path dir, BiConsumer<JournalRecord, net.openhft.chronicle.wire.Wire> writer)
            throws Exception {
        long first = -1;
        long last = 0;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null);
             ExcerptAppender appender = journal.queue().createAppender()) {
            long now = 1_780_000_000_000L;
            // numbers of the bench's size: a million attempts are mostly 6-digit tasks and recipients
            for (int i = 900_000; i < 900_000 + ATTEMPTS + 1; i++) {
                String task = "task-" + (i / 4);
                String to = "user" + i + "@example.com";
                String key = IntentKeys.derive(task, "", "send_email", "[\"" + to + "\"]", "");
                String attemptId = AttemptIds.of(task, key, 1);
                JournalRecord intent = JournalRecord.of(RecordType.INTENT).task(task).call("send_email").kind(Kind.SEND)
                        .intentKey(key).attempt(1).attemptId(attemptId).started(now).budgetLeftS(120L)
                        .args("{\"to\":\"" + to + "\",\"subject\":\"Your order has shipped\",\"priority\":3}")
                        .pid(48_211).thread("main").build();
                JournalRecord outcome = JournalRecord.of(RecordType.OUTCOME).task(task).call("send_email")
                        .kind(Kind.SEND).intentKey(key).attempt(1).attemptId(attemptId).started(now)
                        .outcome(OutcomeWord.OK).effectApplied(Effect.YES).deadlineLeftS(119L).result("\"queued\"")
                        .durationMs(0L).pid(48_211).thread("main").build();
                write(appender, intent, writer);
                last = write(appender, outcome, writer);
                if (first < 0) {
                    // from the end of the first attempt on: the cycle file's header is not per attempt
                    first = last;
                }
            }
        }
        java.util.List<JournalRecord> read = new java.util.ArrayList<>();
        try (ChronicleJournal reader = ChronicleJournal.openReader(dir)) {
            reader.replay((index, r) -> read.add(r));
        }
        assertThat(read).hasSize(2 * (ATTEMPTS + 1));
        assertThat(read.get(read.size() - 1).attemptId()).isEqualTo("task-225500-" + read.get(read.size() - 1)
                .intentKey().substring(0, 8) + "-a1");
        return (last - first) / (double) ATTEMPTS;
    }

    private static long write(ExcerptAppender appender, JournalRecord r,
                              BiConsumer<JournalRecord, net.openhft.chronicle.wire.Wire> writer) {
        try (DocumentContext dc = appender.writingDocument()) {
            writer.accept(r, dc.wire());
            return dc.wire().bytes().writePosition();
        }
    }
}

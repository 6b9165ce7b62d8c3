package dev.effectful.bench;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordCodec;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.keys.IntentKeys;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a journal of N completed attempts (an intent and an ok outcome each), field for field as
 * the engine writes them, through the runtime's own journal and codec, without running any tool.
 */
final class JournalGenerator {

    /** How much was written: the cycle file's used length comes from the last write position. */
    record Written(long attempts, long records, long usedBytes, double seconds) {
    }

    private JournalGenerator() {
    }

    static Written generate(Path dir, int attempts) throws IOException {
        long t0 = System.nanoTime();
        long endPosition = 0;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null);
             ExcerptAppender appender = journal.queue().createAppender()) {
            long pid = ProcessHandle.current().pid();
            long now = System.currentTimeMillis();
            for (int i = 0; i < attempts; i++) {
                String task = "task-" + (i / 4);
                String to = "user" + i + "@example.com";
                String key = IntentKeys.derive(task, "", "send_email", "[\"" + to + "\"]", "");
                String attemptId = task + "-" + key.substring(0, 8) + "-a1";
                JournalRecord intent = JournalRecord.of(RecordType.INTENT).task(task).call("send_email").kind(Kind.SEND)
                        .intentKey(key).attempt(1).attemptId(attemptId).started(now).budgetLeftS(120L)
                        .args("{\"to\":\"" + to + "\",\"subject\":\"" + MailTools.SUBJECT + "\",\"priority\":3}")
                        .pid(pid).thread("main").build();
                JournalRecord outcome = JournalRecord.of(RecordType.OUTCOME).task(task).call("send_email").kind(Kind.SEND)
                        .intentKey(key).attempt(1).attemptId(attemptId).started(now).outcome(OutcomeWord.OK).effectApplied(Effect.YES)
                        .deadlineLeftS(119L).result("\"queued\"").durationMs(0L).pid(pid).thread("main").build();
                write(appender, intent);
                endPosition = write(appender, outcome);
            }
        }
        return new Written(attempts, 2L * attempts, endPosition, (System.nanoTime() - t0) / 1e9);
    }

    private static long write(ExcerptAppender appender, JournalRecord r) {
        try (DocumentContext dc = appender.writingDocument()) {
            RecordCodec.write(r, dc.wire());
            return dc.wire().bytes().writePosition();
        }
    }
}

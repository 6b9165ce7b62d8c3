package dev.effectful.bench;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.ProbeResult;
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

    /**
     * A journal as a busy host leaves it over {@code spanMillis}: per hundred attempts 94 end ok, 5 end
     * {@code unknown} (the effect's fate not known), and 1 is a MONEY intent that asked for approval (every other
     * one approved, then run ok; the rest still waiting). Of the 5 unknown, 4 were settled when the model called
     * again: the tool's probe found the effect (a {@code probe} record, ok, effect applied), as it does for a tool
     * with a probe; 1 is held for a person (effect unknown, listed by {@code unresolved}). So 5 % unknown
     * outcomes, 1 % held. Times spread evenly over the span, oldest first; four attempts a task. {@link
     * Written#attempts} counts every attempt.
     */
    static Written generateMixed(Path dir, int attempts, long spanMillis) throws IOException {
        long t0 = System.nanoTime();
        long endPosition = 0;
        try (ChronicleJournal journal = ChronicleJournal.openWriter(dir, false, null, null);
             ExcerptAppender appender = journal.queue().createAppender()) {
            long pid = ProcessHandle.current().pid();
            long from = System.currentTimeMillis() - spanMillis;
            long records = 0;
            for (int i = 0; i < attempts; i++) {
                String task = "task-" + (i / 4);
                long at = from + spanMillis * i / attempts;
                int mix = i % 100;
                boolean approval = mix == 99;
                String call = approval ? "refund" : "send_email";
                Kind kind = approval ? Kind.MONEY : Kind.SEND;
                String target = approval ? "[\"order-" + i + "\"]" : "[\"user" + i + "@example.com\"]";
                String key = IntentKeys.derive(task, "", call, target, "");
                String attemptId = task + "-" + key.substring(0, 8) + "-a1";
                if (approval) {
                    endPosition = write(appender, JournalRecord.of(RecordType.APPROVAL_REQUESTED).task(task).actor("agent-7").call(call)
                            .kind(kind).intentKey(key).started(at).args("{\"order\":\"order-" + i + "\",\"cents\":500}")
                            .pid(pid).thread("main").build());
                    records++;
                    if (i % 200 != 99) {
                        continue; // still waiting for a person
                    }
                    endPosition = write(appender, JournalRecord.of(RecordType.APPROVAL).task(task).call(call).kind(kind).intentKey(key)
                            .started(at).verdict("approved").by("ops").note("checked").pid(pid).thread("main").build());
                    records++;
                }
                boolean unknown = mix >= 94 && mix < 99;
                write(appender, JournalRecord.of(RecordType.INTENT).task(task).call(call).kind(kind).intentKey(key)
                        .attempt(1).attemptId(attemptId).started(at).budgetLeftS(120L)
                        .args("{\"to\":\"user" + i + "@example.com\",\"subject\":\"" + MailTools.SUBJECT + "\",\"priority\":3}")
                        .pid(pid).thread("main").build());
                JournalRecord.Builder outcome = JournalRecord.of(RecordType.OUTCOME).task(task).call(call).kind(kind)
                        .intentKey(key).attempt(1).attemptId(attemptId).started(at).deadlineLeftS(119L).durationMs(0L)
                        .pid(pid).thread("main");
                if (unknown) {
                    outcome.outcome(OutcomeWord.UNKNOWN).effectApplied(Effect.UNKNOWN).message("read timed out");
                } else {
                    outcome.outcome(OutcomeWord.OK).effectApplied(Effect.YES).result("\"queued\"");
                }
                endPosition = write(appender, outcome.build());
                records += 2;
                if (unknown && mix != 98) {
                    // the model called again a little later: the probe found the effect, which settles the intent
                    endPosition = write(appender, JournalRecord.of(RecordType.PROBE).task(task).call(call).kind(kind)
                            .intentKey(key).attempt(1).started(at + spanMillis / attempts / 2).durationMs(12L).probe(ProbeResult.FOUND)
                            .outcome(OutcomeWord.OK).effectApplied(Effect.YES).result("\"queued\"")
                            .pid(pid).thread("main").build());
                    records++;
                }
            }
            return new Written(attempts, records, endPosition, (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The intent key {@link #generateMixed} gave attempt {@code i} (one that is not an approval: {@code i % 100 != 99}). */
    static String keyOf(int i) {
        return IntentKeys.derive("task-" + (i / 4), "", "send_email", "[\"user" + i + "@example.com\"]", "");
    }

    private static long write(ExcerptAppender appender, JournalRecord r) {
        try (DocumentContext dc = appender.writingDocument()) {
            RecordCodec.write(r, dc.wire());
            return dc.wire().bytes().writePosition();
        }
    }
}

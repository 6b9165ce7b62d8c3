package dev.effectful.cli;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.Effect;
import dev.effectful.cli.TestJournals.Run;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A journal of 1,000,000 records (500,000 intents in 20,000 tasks, one in 1,000 left without an
 * outcome): tasks and unresolved must answer in seconds. Tagged slow: writing the journal alone takes
 * a while. {@link #main} writes the same journal to a directory for measuring the real jar's memory.
 */
@Tag("slow")
class MillionRecordsTest {

    static final int INTENTS = 500_000;

    @TempDir
    Path tmp;

    static void write(Path dir) throws Exception {
        write(dir, INTENTS);
    }

    /** {@code intents} attempts in 20,000 tasks (intent and outcome each), one in 1,000 cut mid-call, then dedups. */
    static void write(Path dir, int intents) throws Exception {
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            long t = TestJournals.T0;
            for (int i = 0; i < intents; i++) {
                String task = "task-" + (i % 20_000);
                String key = String.format("%032x", i * 7919L + 1);
                j.append(JournalRecord.of(RecordType.INTENT).task(task).actor("agent").call("send_email").kind(Kind.SEND)
                        .intentKey(key).attempt(1).attemptId(task + "-a1").started(t + i).budgetLeftS(60L)
                        .args("{\"to\":\"user" + i + "@example.com\"}").build());
                if (i % 1000 == 999) {
                    continue; // crash mid-call: no outcome
                }
                j.append(JournalRecord.of(RecordType.OUTCOME).task(task).actor("agent").call("send_email").kind(Kind.SEND)
                        .intentKey(key).attempt(1).attemptId(task + "-a1").started(t + i).outcome(OutcomeWord.OK).effectApplied(Effect.YES)
                        .result("{\"id\":" + i + "}").durationMs(12L).build());
            }
            // top up to exactly 1,000,000 records with dedups
            for (int i = 0; i < intents / 1000; i++) {
                j.append(JournalRecord.of(RecordType.DEDUP).task("task-" + i).intentKey(String.format("%032x", 1L))
                        .started(t).outcome(OutcomeWord.OK).effectApplied(Effect.YES).build());
            }
        }
    }

    @Test
    void tasksAndUnresolvedAnswerInSeconds() throws Exception {
        Path dir = tmp.resolve("journal");
        long w0 = System.nanoTime();
        write(dir);
        System.out.printf("wrote 1,000,000 records in %d ms%n", (System.nanoTime() - w0) / 1_000_000);

        long t0 = System.nanoTime();
        Run tasks = TestJournals.cli("--dir", dir.toString(), "--json", "tasks");
        long tasksMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(tasks.code()).as(tasks.err()).isZero();
        assertThat(tasks.out().lines().count()).isEqualTo(20_000);

        long u0 = System.nanoTime();
        Run unresolved = TestJournals.cli("--dir", dir.toString(), "--json", "unresolved");
        long unresolvedMs = (System.nanoTime() - u0) / 1_000_000;
        assertThat(unresolved.code()).isEqualTo(3);
        assertThat(unresolved.out().lines().count()).isEqualTo(INTENTS / 1000);

        Run verify = TestJournals.cli("--dir", dir.toString(), "--json", "verify");
        assertThat(verify.out()).contains("\"records\":1000000");

        // a measurement for the record, not a pass mark: speed is a benchmark's job, not a unit test's
        System.out.printf("tasks: %d ms, unresolved: %d ms%n", tasksMs, unresolvedMs);
    }

    /** Writes the journal to args[0], for measuring the jar: java -Xmx64m -jar effectful-agent.jar journal --dir DIR tasks. */
    public static void main(String[] args) throws Exception {
        write(Path.of(args[0]));
    }
}

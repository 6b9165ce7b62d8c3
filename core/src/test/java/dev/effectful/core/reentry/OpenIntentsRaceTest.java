package dev.effectful.core.reentry;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.Effect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent rewrites {@code index.snapshot.open} at every checkpoint while the CLI or the console reads it, at
 * the same moment: a reader always gets one whole file, the one before or the one after, never a mix. Each
 * checkpoint here covers journal index {@code n} and holds exactly {@code n} open intents, so a read whose count
 * differs from its covered index would be a torn file believed.
 */
class OpenIntentsRaceTest {

    @TempDir
    Path dir;

    @Test
    void aReaderBesideTheWriterSeesOneWholeFileEachTime() throws Exception {
        LocalIntentIndex index = new LocalIntentIndex();
        index.writeSnapshot(dir, 0, "k");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            while (writing.get()) {
                OpenIntents read = OpenIntents.read(dir).orElseThrow(() -> new AssertionError("no usable file"));
                Map<String, IntentState> open = new HashMap<>();
                read.forEach(open::put);
                assertThat(open).as("open intents of the file covering %d", read.covers().lastIndex())
                        .hasSize((int) read.covers().lastIndex());
                reads.incrementAndGet();
            }
        });
        try {
            for (int n = 1; n <= 400 && !reader.isDone(); n++) {
                String key = String.format("%032x", n);
                // one more unknown outcome and one settled intent at each checkpoint
                index.apply(2L * n, JournalRecord.of(RecordType.OUTCOME).task("t").call("send").kind(Kind.SEND)
                        .intentKey(key).attempt(1).started(1_000L + n).outcome(OutcomeWord.UNKNOWN)
                        .effectApplied(Effect.UNKNOWN).build());
                index.apply(2L * n + 1, JournalRecord.of(RecordType.OUTCOME).task("t").call("send").kind(Kind.SEND)
                        .intentKey(String.format("f%031x", n)).attempt(1).started(1_000L + n).outcome(OutcomeWord.OK)
                        .effectApplied(Effect.YES).result("1").build());
                index.writeSnapshot(dir, n, "k");
            }
        } finally {
            writing.set(false);
        }
        reader.get(30, TimeUnit.SECONDS);
        assertThat(reads.get()).as("reads made while the writer wrote").isPositive();
        assertThat(OpenIntents.read(dir).orElseThrow().covers().lastIndex()).isEqualTo(400);
    }
}

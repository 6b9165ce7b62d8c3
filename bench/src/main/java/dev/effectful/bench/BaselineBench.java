package dev.effectful.bench;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.Effect;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordCodec;
import dev.effectful.core.journal.RecordType;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * What a user would pick instead of Effectful, and the floor under it. Runs in forks without the
 * agent (RunAll chooses the JVM arguments). Each invocation is one new call of the same tool.
 */
public class BaselineBench {

    /** Resources shared by the fork's benchmark threads, in a directory of the fork's own. */
    @State(Scope.Benchmark)
    public static class Shared {
        Path dir;
        Retry retry;
        ObjectMapper mapper;
        OutputStream jsonl;
        String h2Url;
        SingleChronicleQueue floorQueue;
        SingleChronicleQueue msyncQueue;

        @Setup(Level.Trial)
        public void open() throws IOException, SQLException {
            dir = Files.createTempDirectory(Path.of(System.getProperty("bench.work", System.getProperty("java.io.tmpdir"))),
                    "baseline");
            retry = Retry.of("send_email", RetryConfig.custom().maxAttempts(3).waitDuration(Duration.ofMillis(100)).build());
            mapper = new ObjectMapper();
            jsonl = new BufferedOutputStream(Files.newOutputStream(dir.resolve("journal.jsonl")), 8192);
            h2Url = "jdbc:h2:file:" + dir.resolve("journal").toAbsolutePath();
            try (Connection c = DriverManager.getConnection(h2Url); Statement s = c.createStatement()) {
                s.execute("create table if not exists attempts (intent_key varchar(200) primary key, task varchar(100),"
                        + " call varchar(100), args varchar(2000), started bigint, outcome varchar(20),"
                        + " result varchar(2000), finished bigint)");
            }
            floorQueue = SingleChronicleQueueBuilder.binary(dir.resolve("floor")).build();
            msyncQueue = SingleChronicleQueueBuilder.binary(dir.resolve("msync")).syncMode(SyncMode.NONE).build();
        }

        /** Appends one JSON line and flushes it to the file (a write(2) per record, no fsync). */
        synchronized void jsonlAppend(Object record) throws IOException {
            jsonl.write(mapper.writeValueAsBytes(record));
            jsonl.write('\n');
            jsonl.flush();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            jsonl.close();
            floorQueue.close();
            msyncQueue.close();
        }
    }

    /** Per benchmark thread: its own argument counter, JDBC connection and Chronicle appenders. */
    @State(Scope.Thread)
    public static class Caller {
        final MailTools tools = new MailTools();
        final String prefix = Callers.threadPrefix();
        long n;
        Connection h2;
        PreparedStatement insert;
        PreparedStatement update;
        ExcerptAppender floor;
        ExcerptAppender msync;
        byte[] intentBytes;
        byte[] outcomeBytes;

        @Setup(Level.Trial)
        public void open(Shared shared) throws SQLException {
            h2 = DriverManager.getConnection(shared.h2Url);
            insert = h2.prepareStatement("insert into attempts (intent_key, task, call, args, started) values (?,?,?,?,?)");
            update = h2.prepareStatement("update attempts set outcome = ?, result = ?, finished = ? where intent_key = ?");
            floor = shared.floorQueue.createAppender();
            msync = shared.msyncQueue.createAppender();
            intentBytes = encode(FloorRecords.intent(prefix));
            outcomeBytes = encode(FloorRecords.outcome(prefix));
        }

        @TearDown(Level.Trial)
        public void close() throws SQLException {
            h2.close();
            floor.close();
            msync.close();
        }

        String nextRecipient() {
            return Callers.recipient(prefix, n++);
        }

        private static final long WINDOW = 64L << 20;
        private Path syncedFile;
        private long windowStart = -1;
        private MappedByteBuffer syncWindow;

        /** msync(MS_SYNC) of {@code [from, to)}, through 64 MiB windows of the file mapped read-only. */
        void force(Path file, long from, long to) throws IOException {
            for (long pos = from; pos < to; ) {
                long start = pos - pos % WINDOW;
                long end = Math.min(to, start + WINDOW);
                // remapped when the file has grown past the window's end since it was mapped
                if (syncWindow == null || !file.equals(syncedFile) || windowStart != start
                        || start + syncWindow.capacity() < end) {
                    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                        syncWindow = ch.map(FileChannel.MapMode.READ_ONLY, start, Math.min(WINDOW, ch.size() - start));
                    }
                    syncedFile = file;
                    windowStart = start;
                }
                syncWindow.force((int) (pos - start), (int) (end - pos));
                pos = end;
            }
        }
    }

    record JsonIntent(String type, String task, String call, String to, String subject, int priority, long started) {
    }

    record JsonOutcome(String type, String task, String call, String to, String outcome, String result, long durationNs) {
    }

    @Benchmark
    public String plain(Caller c) {
        return c.tools.sendEmail(c.nextRecipient(), MailTools.SUBJECT, 3);
    }

    @Benchmark
    public String resilience4jRetry(Shared s, Caller c) {
        String to = c.nextRecipient();
        return s.retry.executeSupplier(() -> c.tools.sendEmail(to, MailTools.SUBJECT, 3));
    }

    @Benchmark
    public String jsonlFile(Shared s, Caller c) throws IOException {
        String to = c.nextRecipient();
        long started = System.nanoTime();
        s.jsonlAppend(new JsonIntent("intent", "bench-task", "send_email", to, MailTools.SUBJECT, 3, System.currentTimeMillis()));
        String result = c.tools.sendEmail(to, MailTools.SUBJECT, 3);
        s.jsonlAppend(new JsonOutcome("outcome", "bench-task", "send_email", to, "ok", result, System.nanoTime() - started));
        return result;
    }

    @Benchmark
    public String h2Jdbc(Caller c) throws SQLException {
        String to = c.nextRecipient();
        c.insert.setString(1, to);
        c.insert.setString(2, "bench-task");
        c.insert.setString(3, "send_email");
        c.insert.setString(4, "{\"to\":\"" + to + "\",\"subject\":\"" + MailTools.SUBJECT + "\",\"priority\":3}");
        c.insert.setLong(5, System.currentTimeMillis());
        c.insert.executeUpdate();
        String result = c.tools.sendEmail(to, MailTools.SUBJECT, 3);
        c.update.setString(1, "ok");
        c.update.setString(2, result);
        c.update.setLong(3, System.currentTimeMillis());
        c.update.setString(4, to);
        c.update.executeUpdate();
        return result;
    }

    /** The floor: the bytes Effectful writes per call (intent + outcome), as two raw appends. */
    @Benchmark
    public String chronicleFloor(Caller c) {
        String to = c.nextRecipient();
        try (DocumentContext dc = c.floor.writingDocument()) {
            dc.wire().bytes().write(c.intentBytes);
        }
        String result = c.tools.sendEmail(to, MailTools.SUBJECT, 3);
        try (DocumentContext dc = c.floor.writingDocument()) {
            dc.wire().bytes().write(c.outcomeBytes);
        }
        return result;
    }

    /**
     * One append and one msync of its own bytes: what {@code sync=intent} adds per call, at best.
     * Chronicle's {@code sync()} reaches msync through a native layer the agent leaves out (it then
     * syncs nothing), so this forces the appended range through a second, read-only mapping of the
     * cycle file with {@link MappedByteBuffer#force(int, int)}, as the agent's journal does.
     */
    @Benchmark
    public String chronicleMsync(Caller c) throws IOException {
        String to = c.nextRecipient();
        long from;
        long end;
        try (DocumentContext dc = c.msync.writingDocument()) {
            from = dc.wire().bytes().writePosition() - 4;
            dc.wire().bytes().write(c.intentBytes);
            end = dc.wire().bytes().writePosition();
        }
        c.force(c.msync.currentFile().toPath(), from, end);
        return c.tools.sendEmail(to, MailTools.SUBJECT, 3);
    }

    static byte[] encode(JournalRecord r) {
        Bytes<?> bytes = Bytes.allocateElasticOnHeap(512);
        Wire wire = WireType.BINARY_LIGHT.apply(bytes);
        RecordCodec.write(r, wire);
        return bytes.toByteArray();
    }

    /** Records shaped like the engine's for one send_email attempt (same fields, similar lengths). */
    static final class FloorRecords {
        private FloorRecords() {
        }

        static JournalRecord intent(String prefix) {
            return JournalRecord.of(RecordType.INTENT).task("bench-" + prefix).call("send_email").kind(Kind.SEND)
                    .intentKey("0123456789abcdef0123456789abcdef").attempt(1)
                    .attemptId("bench-" + prefix + "-01234567-a1").started(System.currentTimeMillis()).budgetLeftS(3599L)
                    .args("{\"to\":\"" + Callers.recipient(prefix, 1_000_000) + "\",\"subject\":\"" + MailTools.SUBJECT
                            + "\",\"priority\":3}")
                    .build();
        }

        static JournalRecord outcome(String prefix) {
            return JournalRecord.of(RecordType.OUTCOME).task("bench-" + prefix).call("send_email").kind(Kind.SEND)
                    .intentKey("0123456789abcdef0123456789abcdef").attempt(1)
                    .attemptId("bench-" + prefix + "-01234567-a1").started(System.currentTimeMillis()).outcome(OutcomeWord.OK)
                    .effectApplied(Effect.YES).deadlineLeftS(3599L).result("\"queued\"").durationMs(0L).build();
        }
    }
}

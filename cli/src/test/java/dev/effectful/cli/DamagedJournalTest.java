package dev.effectful.cli;

import dev.effectful.testsupport.CycleFiles;
import dev.effectful.cli.TestJournals.Run;
import dev.effectful.core.journal.ChronicleJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Damaged journals: the CLI must answer every command within a bound, with a one-line error or
 * partial results and a warning, never an exception trace.
 */
class DamagedJournalTest {

    private static final List<String> COMMANDS = List.of("tasks", "unresolved", "export", "verify", "tail", "show ord-2");

    @TempDir
    Path tmp;

    private Path journalWithManyRecords() throws Exception {
        Path dir = tmp.resolve("journal");
        TestJournals.writeScenario(dir);
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            for (int i = 0; i < 2000; i++) {
                String key = String.format("%032x", 1000 + i);
                j.append(TestJournals.intent("bulk-" + (i % 10), "send", "send", key, 1, TestJournals.T0 + i, "{\"i\":" + i + "}"));
                j.append(TestJournals.outcome("bulk-" + (i % 10), "send", "send", key, 1, TestJournals.T0 + i, "ok", "yes", "true", 1L));
            }
        }
        return dir;
    }

    private static Path cycleFile(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    private static void runAllBounded(Path dir) {
        for (String command : COMMANDS) {
            String[] args = Stream.concat(Stream.of("--dir", dir.toString()), Stream.of(command.split(" "))).toArray(String[]::new);
            Run r = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> TestJournals.cli(Map.of(), false, args), command);
            assertThat(r.code()).as(command + ": " + r.err()).isIn(0, 1, 2, 3);
            assertThat(r.err()).as(command).doesNotContain("\tat ").doesNotContain("Exception in thread");
            for (String line : r.err().split("\n")) {
                assertThat(line).as(command).matches("^(effectful journal: .*)?$");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.9, 0.5, 0.1, 0.001})
    void aTruncatedCycleFileNeverHangsOrThrows(double keep) throws Exception {
        Path dir = journalWithManyRecords();
        Path file = cycleFile(dir);
        long used = CycleFiles.usedBytes(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength((long) (used * keep));
        }
        runAllBounded(dir);
    }

    @Test
    void verifyNamesTheTruncatedFileTheOffsetAndWhatCameBefore() throws Exception {
        Path dir = journalWithManyRecords();
        Path file = cycleFile(dir);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(CycleFiles.usedBytes(file) / 2);
        }
        Run verify = TestJournals.cli("--dir", dir.toString(), "verify");
        assertThat(verify.code()).as(verify.err()).isEqualTo(1);
        assertThat(verify.out()).containsPattern("damaged cycle file " + file.getFileName()
                + ": truncated.* at byte \\d+; \\d+ complete record\\(s\\) before it");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void overwrittenBytesNeverHangOrThrow(int seed) throws Exception {
        Path dir = journalWithManyRecords();
        Path file = cycleFile(dir);
        long used = CycleFiles.usedBytes(file);
        Random random = new Random(seed);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            for (int i = 0; i < 20; i++) {
                byte[] junk = new byte[1 + random.nextInt(64)];
                random.nextBytes(junk);
                raf.seek((long) (random.nextDouble() * used));
                raf.write(junk);
            }
        }
        runAllBounded(dir);
        Run verify = TestJournals.cli("--dir", dir.toString(), "verify");
        assertThat(verify.code()).isIn(1, 2); // damage is something a person must look at
    }

    @Test
    void unparseableArgsAreKeptAsAString() throws Exception {
        // arguments that are not JSON, as written (overwriting them on disk is damage now: records carry
        // checksums, and ChecksumFuzzTest covers that); export must keep them as a string
        Path dir = journalWithManyRecords();
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(TestJournals.intent("odd", "send", "send", String.format("%032x", 99), 1, TestJournals.T0, "#########"));
        }
        Run export = TestJournals.cli("--dir", dir.toString(), "export");
        assertThat(export.code()).isZero();
        assertThat(export.out()).contains("\"args\":\"##########\"".substring(0, 17)); // kept as a string, not lost
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void anEmptyDirectoryAndRandomFilesAreNotAJournal() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Run r = TestJournals.cli("--dir", empty.toString(), "verify");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).doesNotContain("\n").contains("not an Effectful journal");

        Path junk = Files.createDirectories(tmp.resolve("junk"));
        byte[] bytes = new byte[200_000];
        new Random(7).nextBytes(bytes);
        Files.write(junk.resolve("20260101.cq4"), bytes);
        Files.write(junk.resolve("metadata.cq4t"), bytes);
        runAllBounded(junk);
    }

    @Test
    void aMetadataFileAloneIsHandled() throws Exception {
        Path dir = journalWithManyRecords();
        Files.delete(cycleFile(dir));
        runAllBounded(dir);
    }

    @Test
    void workThatStopsAdvancingIsAbandoned() throws Exception {
        // the watchdog itself: work that never reports progress is abandoned after the bound
        JournalReader.Worker w = new JournalReader.Worker(200);
        long t0 = System.nanoTime();
        w.run(progress -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException ignored) {
                // abandoned
            }
        });
        assertThat(w.stalled).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    }
}

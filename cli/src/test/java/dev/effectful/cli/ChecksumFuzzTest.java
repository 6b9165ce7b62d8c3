package dev.effectful.cli;

import dev.effectful.cli.TestJournals.Run;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Random damage to a real journal on disk (seeded): bit flips, zeroed runs and random bytes inside
 * the written region of the cycle file. Every damage that changes a record's bytes must be reported
 * by {@code verify} (exit 1) and at start (the writer's replay reports the record, or refuses to
 * open the journal); damage that only touches the padding between records must not be an alarm.
 */
class ChecksumFuzzTest {

    private static final int CASES = 200;
    private static final int META = 0x4000_0000;
    private static final int NOT_COMPLETE = 0x8000_0000;

    @TempDir
    Path tmp;

    /** A region of the cycle file: a data record (header and body), or the padding after one. */
    private record Region(long from, long to, boolean record) {
    }

    @Test
    void everyChangedRecordIsReportedAndPaddingIsNoAlarm() throws Exception {
        Path clean = tmp.resolve("clean");
        TestJournals.writeScenario(clean);
        Path cleanFile = cycleFile(clean);
        byte[] original = Files.readAllBytes(cleanFile);
        List<Region> regions = regions(original);
        assertThat(regions.stream().filter(Region::record)).hasSize(10);
        int cleanCode = verify(clean).code();
        assertThat(cleanCode).as("the undamaged scenario has intents waiting for a person").isEqualTo(3);

        Random rnd = new Random(20260415L);
        int records = 0;
        int padding = 0;
        List<String> missed = new ArrayList<>();
        long started = System.nanoTime();
        for (int c = 0; c < CASES; c++) {
            // half the cases inside a record, half in padding, so both are well covered
            boolean wantRecord = c % 2 == 0;
            List<Region> pool = regions.stream().filter(r -> r.record() == wantRecord && r.to() > r.from()).toList();
            Region region = pool.get(rnd.nextInt(pool.size()));
            byte[] damaged = original.clone();
            String what = damage(damaged, region, rnd);
            if (java.util.Arrays.equals(damaged, original)) {
                continue; // zeroing zeros changes nothing
            }
            Path dir = copy(clean, tmp.resolve("case-" + c));
            Files.write(cycleFile(dir), damaged);
            String label = "case " + c + ": " + what + " in " + (region.record() ? "record" : "padding") + " "
                    + region.from() + ".." + region.to();

            Run v = verify(dir);
            assertThat(v.err()).as(label).doesNotContain("\tat ");
            boolean atStart = reportedAtStart(dir);
            if (region.record()) {
                records++;
                if (v.code() != 1 || !atStart) {
                    missed.add(label + ": verify exit " + v.code() + ", at start " + atStart + "\n" + v.out());
                }
            } else {
                padding++;
                assertThat(v.code()).as(label + ": padding is not damage\n" + v.out()).isEqualTo(cleanCode);
                assertThat(atStart).as(label + ": padding is no alarm at start").isFalse();
            }
        }
        assertThat(missed).as("damage inside records that went unreported").isEmpty();
        assertThat(records).isGreaterThan(80);
        assertThat(padding).isGreaterThan(30);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("bounded").isLessThan(Duration.ofMinutes(5));
    }

    /** What a writer opening the journal reports: damaged records met by its replay, or a refusal to open. */
    private static boolean reportedAtStart(Path dir) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            ChronicleJournal j;
            try {
                j = ChronicleJournal.openWriter(dir, false, null, null);
            } catch (IOException e) {
                return true; // the engine then refuses every effectful call, naming this
            }
            try (j) {
                if (!j.damageFound().isEmpty()) {
                    return true; // a damaged file moved aside, logged loudly
                }
                try {
                    j.replayForIndex((i, r) -> { });
                } catch (JournalUnavailableException e) {
                    return true;
                }
                return !j.damagedRecords().isEmpty();
            }
        });
    }

    private static Run verify(Path dir) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> TestJournals.cli("--dir", dir.toString(), "verify"));
    }

    private static String damage(byte[] b, Region r, Random rnd) {
        int span = (int) (r.to() - r.from());
        int at = (int) r.from() + rnd.nextInt(span);
        switch (rnd.nextInt(3)) {
            case 0 -> {
                int bit = rnd.nextInt(8);
                b[at] ^= (byte) (1 << bit);
                return "bit " + bit + " flipped at " + at;
            }
            case 1 -> {
                int n = Math.min(1 + rnd.nextInt(16), (int) r.to() - at);
                java.util.Arrays.fill(b, at, at + n, (byte) 0);
                return n + " bytes zeroed at " + at;
            }
            default -> {
                int n = Math.min(1 + rnd.nextInt(8), (int) r.to() - at);
                for (int i = 0; i < n; i++) {
                    b[at + i] = (byte) rnd.nextInt(256);
                }
                return n + " random bytes at " + at;
            }
        }
    }

    /** Data records and the alignment padding after each, walked by Chronicle's document headers. */
    private static List<Region> regions(byte[] file) {
        ByteBuffer buf = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        List<Region> out = new ArrayList<>();
        long pos = 0;
        while (pos + 4 <= file.length) {
            int header = buf.getInt((int) pos);
            if (header == 0 || (header & NOT_COMPLETE) != 0) {
                break;
            }
            int length = header & 0x3FFF_FFFF;
            long end = pos + 4 + length;
            long next = (end + 3) & ~3L;
            if ((header & META) == 0) {
                out.add(new Region(pos, end, true));
                out.add(new Region(end, next, false));
            }
            pos = next;
        }
        return out;
    }

    private static Path cycleFile(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    private static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p) && !p.getFileName().toString().endsWith(".lock")) {
                    Files.copy(p, to.resolve(p.getFileName()));
                }
            }
        }
        return to;
    }
}

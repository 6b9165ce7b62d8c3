package dev.effectful.core.journal;

import dev.effectful.testsupport.CycleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A damaged newest cycle file: its complete prefix is kept, the file moved aside, and the writer goes on. */
class JournalSalvageTest {

    @TempDir
    Path tmp;

    private static JournalRecord intent(int i) {
        return JournalRecord.of(RecordType.INTENT).task("t").call("send").kind(Kind.SEND).intentKey("k" + i).attempt(1)
                .attemptId("t-k" + i + "-a1").started(123L + i).budgetLeftS(42L).args("{\"to\":\"bob\"}").build();
    }

    private Path journalOf(int n) throws Exception {
        Path dir = tmp.resolve("j");
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            for (int i = 0; i < n; i++) {
                j.append(intent(i));
            }
        }
        return dir;
    }

    private static Path only(Path dir, String suffix) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> l = s.filter(p -> (suffix.equals(".cq4") ? p.getFileName().toString().endsWith(suffix) : p.getFileName().toString().contains(suffix))).toList();
            assertThat(l).hasSize(1);
            return l.get(0);
        }
    }

    private static List<JournalRecord> all(ChronicleJournal j) {
        List<JournalRecord> out = new ArrayList<>();
        j.replay((i, r) -> out.add(r));
        return out;
    }

    @Test
    void aTruncatedNewestFileIsRecoveredUpToTheCutMovedAsideAndAppendedTo() throws Exception {
        Path dir = journalOf(60);
        Path cycle = only(dir, ".cq4");
        try (RandomAccessFile f = new RandomAccessFile(cycle.toFile(), "rw")) {
            f.setLength(CycleFiles.usedBytes(cycle) - 2000);
        }
        CycleFileScan.Result scan = CycleFileScan.full(cycle);
        assertThat(scan.damaged()).isTrue();
        assertThat(scan.describe()).startsWith(cycle.getFileName() + ": truncated").contains("at byte " + scan.damageAt());
        int kept = scan.records().size();
        assertThat(kept).as("a prefix survives, the tail does not").isBetween(1, 59);

        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            assertThat(j.damageFound()).singleElement().asString().contains(cycle.getFileName().toString(), "at byte",
                    kept + " complete record(s)", JournalSalvage.DAMAGED);
            j.append(intent(1000));
            List<JournalRecord> expected = new ArrayList<>();
            for (int i = 0; i < kept; i++) {
                expected.add(intent(i));
            }
            expected.add(intent(1000));
            assertThat(all(j)).isEqualTo(expected);
        }
        Path damaged = only(dir, JournalSalvage.DAMAGED);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(damaged))).isEqualTo("rw-------");
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            assertThat(j.damageFound()).as("salvaged once, not again").isEmpty();
            assertThat(all(j)).hasSize(kept + 1);
        }
    }

    @Test
    void bytesOverwrittenInTheNewestFileKeepEverythingBeforeThem() throws Exception {
        Path dir = journalOf(60);
        Path cycle = only(dir, ".cq4");
        long header = CycleFileScan.full(cycle).records().get(30).offset();
        try (RandomAccessFile f = new RandomAccessFile(cycle.toFile(), "rw")) {
            f.seek(header);
            byte[] junk = new byte[64];
            Arrays.fill(junk, (byte) 0x5a);
            f.write(junk);
        }
        CycleFileScan.Result scan = CycleFileScan.full(cycle);
        assertThat(scan.damaged()).isTrue();
        assertThat(scan.damageAt()).isEqualTo(header);
        assertThat(scan.records()).hasSize(30);
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            assertThat(j.damageFound()).hasSize(1);
            assertThat(all(j).subList(0, scan.records().size())).isEqualTo(scan.records().stream()
                    .map(CycleFileScan.Found::record).toList());
            j.append(intent(1000));
        }
    }

    @Test
    void junkInsideARecordBodyIsFoundByAFullReadOnly() throws Exception {
        Path dir = journalOf(60);
        Path cycle = only(dir, ".cq4");
        try (RandomAccessFile f = new RandomAccessFile(cycle.toFile(), "rw")) {
            f.seek(CycleFileScan.full(cycle).records().get(30).offset() + 8);
            byte[] junk = new byte[64];
            Arrays.fill(junk, (byte) 0x5a);
            f.write(junk);
        }
        assertThat(CycleFileScan.headers(cycle).damaged()).as("the headers are intact").isFalse();
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(full.damaged()).as("what verify reads").isTrue();
        assertThat(full.describe()).contains("overwritten: a record that does not decode");
        assertThat(full.records()).hasSize(30);
    }

    @Test
    void aSoundJournalIsLeftAlone() throws Exception {
        Path dir = journalOf(10);
        assertThat(CycleFileScan.full(only(dir, ".cq4")).records()).hasSize(10);
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            assertThat(j.damageFound()).isEmpty();
            assertThat(all(j)).hasSize(10);
        }
    }
}

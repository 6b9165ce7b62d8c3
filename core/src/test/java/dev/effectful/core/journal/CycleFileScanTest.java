package dev.effectful.core.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cycle-file walk on real Chronicle files, each damaged one way: what it keeps, where it says the damage
 * starts, and in which words. {@link JournalSalvageTest} covers what the writer then does with the answer.
 */
class CycleFileScanTest {

    /** Chronicle's document header: length in the low 30 bits, bit 30 metadata, bit 31 not complete. */
    private static final int META = 0x4000_0000;
    private static final int NOT_COMPLETE = 0x8000_0000;

    @TempDir
    Path tmp;

    private static JournalRecord intent(int i, String args) {
        return JournalRecord.of(RecordType.INTENT).task("t").call("send").kind(Kind.SEND).intentKey("k" + i).attempt(1)
                .attemptId("t-k" + i + "-a1").started(1_000L + i).budgetLeftS(42L).args(args).build();
    }

    private Path cycleOf(int n, String args) throws Exception {
        Path dir = tmp.resolve("j" + n + "-" + args.length());
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            for (int i = 0; i < n; i++) {
                j.append(intent(i, args));
            }
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> l = s.filter(p -> p.getFileName().toString().endsWith(".cq4")).toList();
            assertThat(l).hasSize(1);
            return l.get(0);
        }
    }

    private static int headerAt(Path file, long offset) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            f.seek(offset);
            return Integer.reverseBytes(f.readInt());
        }
    }

    /** Where record {@code n} of {@code cycle} starts, as a full scan finds it. */
    private static long offsetOf(Path cycle, int n) throws Exception {
        return CycleFileScan.full(cycle).records().get(n).offset();
    }

    /** Marks record {@code n}'s header not complete, as a writer killed mid-record leaves it: its offset. */
    private static long tornAt(Path cycle, int n) throws Exception {
        long at = offsetOf(cycle, n);
        writeHeader(cycle, at, NOT_COMPLETE);
        return at;
    }

    private static void writeHeader(Path file, long offset, int header) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            f.writeInt(Integer.reverseBytes(header));
        }
    }

    private static void flipByte(Path file, long offset) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x5A);
        }
    }

    private static List<String> keys(CycleFileScan.Result r) {
        return r.records().stream().map(f -> f.record().intentKey()).toList();
    }

    @Test
    void aSoundFileGivesEveryRecordInOrderAtAlignedOffsets() throws Exception {
        Path cycle = cycleOf(40, "{\"to\":\"bob\"}");
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(full.damaged()).isFalse();
        assertThat(full.damageAt()).isEqualTo(-1);
        assertThat(full.complete()).isEqualTo(40);
        assertThat(full.damagedRecords()).isEmpty();
        assertThat(keys(full)).hasSize(40).startsWith("k0", "k1").endsWith("k39");
        assertThat(full.records().get(7).record()).isEqualTo(intent(7, "{\"to\":\"bob\"}"));
        long previous = -1;
        for (CycleFileScan.Found f : full.records()) {
            assertThat(f.offset() % 4).isZero();
            assertThat(f.offset()).isGreaterThan(previous);
            int header = headerAt(cycle, f.offset());
            assertThat(header & META).as("a data document").isZero();
            assertThat(header & NOT_COMPLETE).isZero();
            previous = f.offset();
        }
        assertThat(full.describe()).isEqualTo(cycle.getFileName().toString());

        CycleFileScan.Result index = CycleFileScan.forIndex(cycle);
        assertThat(keys(index)).isEqualTo(keys(full));
        assertThat(index.records().get(3).offset()).isEqualTo(full.records().get(3).offset());
        assertThat(index.complete()).isEqualTo(40);

        CycleFileScan.Result headers = CycleFileScan.headers(cycle);
        assertThat(headers.records()).as("the header walk decodes nothing").isEmpty();
        assertThat(headers.complete()).isEqualTo(40);
        assertThat(headers.damaged()).isFalse();
    }

    @Test
    void recordsBeyondTheFirstMebibyteAreReadThroughTheMovingWindow() throws Exception {
        String args = "{\"note\":\"" + "x".repeat(3_000) + "\"}";
        Path cycle = cycleOf(700, args);   // ~2 MiB of records: the 1 MiB read window moves twice
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(full.damaged()).isFalse();
        assertThat(full.complete()).isEqualTo(700);
        assertThat(full.records().get(699).offset()).isGreaterThan(2L << 20 - 1);
        assertThat(full.records().get(699).record()).isEqualTo(intent(699, args));
        assertThat(full.records().get(350).record()).isEqualTo(intent(350, args));
    }

    @Test
    void aCutFileKeepsTheRecordsBeforeTheCutAndNamesWhereItIs() throws Exception {
        Path cycle = cycleOf(30, "{\"to\":\"bob\"}");
        long cutInside = CycleFileScan.full(cycle).records().get(20).offset() + 10;
        try (RandomAccessFile f = new RandomAccessFile(cycle.toFile(), "rw")) {
            f.setLength(cutInside);
        }
        for (CycleFileScan.Result r : List.of(CycleFileScan.full(cycle), CycleFileScan.headers(cycle))) {
            assertThat(r.damaged()).isTrue();
            assertThat(r.complete()).isEqualTo(20);
            assertThat(r.damage()).startsWith("truncated or overwritten: a record header claims")
                    .contains("past the end of the file (" + cutInside + " bytes)");
            assertThat(r.describe()).contains(" at byte " + r.damageAt() + "; 20 complete record(s) before it");
        }
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(keys(full)).hasSize(20).endsWith("k19");
        assertThat(full.damageAt()).isEqualTo(cutInside - 10);

        long cutAtHeader = cutInside - 10 + 2; // the file ends inside the next header itself
        try (RandomAccessFile f = new RandomAccessFile(cycle.toFile(), "rw")) {
            f.setLength(cutAtHeader);
        }
        CycleFileScan.Result r = CycleFileScan.full(cycle);
        assertThat(r.damage()).isEqualTo("truncated: the file ends (" + cutAtHeader + " bytes) where a record header should be");
        assertThat(r.damageAt()).isEqualTo(cutInside - 10);
        assertThat(r.complete()).isEqualTo(20);
    }

    @Test
    void aZeroedHeaderWithRecordsAfterItIsDamageAndTheRecordsAfterItAreStillFound() throws Exception {
        Path cycle = cycleOf(30, "{\"to\":\"bob\"}");
        long at = offsetOf(cycle, 12);
        writeHeader(cycle, at, 0);
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(full.damaged()).isTrue();
        assertThat(full.damageAt()).isEqualTo(at);
        assertThat(full.complete()).as("complete records before the damage").isEqualTo(12);
        assertThat(full.damage()).isEqualTo(CycleFileScan.ZEROED + "17 complete record(s) after it");
        assertThat(keys(full)).as("every record but the zeroed one").hasSize(29).doesNotContain("k12").contains("k13", "k29");
        assertThat(full.damagedRecords()).hasSize(1);
        CycleFileScan.Bad bad = full.damagedRecords().get(0);
        assertThat(bad.offset()).isEqualTo(at);
        assertThat(bad.torn()).isFalse();
        assertThat(bad.toString()).isEqualTo(Long.toString(at));
        assertThat(CycleFileScan.headers(cycle).damageAt()).as("the header walk finds it too").isEqualTo(at);
    }

    @Test
    void aTornRecordAtTheEndIsWhereTheWriterGoesOnNotDamage() throws Exception {
        Path cycle = cycleOf(10, "{\"to\":\"bob\"}");
        long last = tornAt(cycle, 9);
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(full.damaged()).isFalse();
        assertThat(keys(full)).hasSize(9).endsWith("k8");
        assertThat(full.damagedRecords()).isEmpty();
    }

    @Test
    void aTornHeaderWithCompleteRecordsAfterItIsNamedTorn() throws Exception {
        Path cycle = cycleOf(10, "{\"to\":\"bob\"}");
        long at = tornAt(cycle, 4);
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(full.damagedRecords()).singleElement().satisfies(b -> {
            assertThat(b.offset()).isEqualTo(at);
            assertThat(b.torn()).as("exactly what a writer killed mid-record leaves").isTrue();
        });
        assertThat(keys(full)).hasSize(9).doesNotContain("k4");

        // the same place with a length left and the not-complete bit flipped on: an overwrite, not a tear
        Path other = cycleOf(11, "{\"to\":\"bob\"}");
        long at2 = CycleFileScan.full(other).records().get(4).offset();
        writeHeader(other, at2, headerAt(other, at2) | NOT_COMPLETE);
        assertThat(CycleFileScan.full(other).damagedRecords()).singleElement()
                .satisfies(b -> assertThat(b.torn()).isFalse());
    }

    @Test
    void aRecordWhoseBytesChangedIsListedAndTheScanGoesOn() throws Exception {
        Path cycle = cycleOf(20, "{\"to\":\"bob\",\"text\":\"hello there\"}");
        CycleFileScan.Found victim = CycleFileScan.full(cycle).records().get(7);
        long end = offsetOf(cycle, 8);
        flipByte(cycle, victim.offset() + (end - victim.offset()) / 2);
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(keys(full)).doesNotContain("k7").contains("k6", "k8", "k19");
        assertThat(full.damagedRecords()).extracting(CycleFileScan.Bad::offset).contains(victim.offset());
        assertThat(full.describe()).contains("damaged record(s) (checksum mismatch) at byte(s) [" + victim.offset() + "]")
                .contains("not kept");
        assertThat(CycleFileScan.headers(cycle).damagedRecords()).as("the header walk reads no record body").isEmpty();
        assertThat(CycleFileScan.full(cycle).damagedRecords().get(0).crc())
                .as("the same bytes give the same name").isEqualTo(full.damagedRecords().get(0).crc());
    }

    @Test
    void aDataRecordTurnedIntoMetadataIsCaughtByADecodingScan() throws Exception {
        Path cycle = cycleOf(10, "{\"to\":\"bob\"}");
        long at = offsetOf(cycle, 3);
        writeHeader(cycle, at, headerAt(cycle, at) | META);
        CycleFileScan.Result full = CycleFileScan.full(cycle);
        assertThat(full.damagedRecords()).extracting(CycleFileScan.Bad::offset).containsExactly(at);
        assertThat(keys(full)).hasSize(9).doesNotContain("k3");
        assertThat(full.complete()).as("a metadata document is not counted").isEqualTo(9);
        assertThat(CycleFileScan.headers(cycle).damagedRecords()).isEmpty();
    }

    @Test
    void aFileWhoseStartIsOverwrittenHasNoStoreHeader() throws Exception {
        Path cycle = cycleOf(5, "{\"to\":\"bob\"}");
        writeHeader(cycle, 0, headerAt(cycle, 0) & ~META);
        CycleFileScan.Result r = CycleFileScan.headers(cycle);
        assertThat(r.damage()).isEqualTo("overwritten: no store header at the start of the file");
        assertThat(r.damageAt()).isZero();
        assertThat(r.complete()).isZero();
    }
}

package dev.effectful.core.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChronicleJournalTest {

    @TempDir
    Path tmp;

    private static JournalRecord intent(String key) {
        return JournalRecord.of(RecordType.INTENT).task("t").call("send").kind(Kind.SEND).intentKey(key).attempt(1)
                .attemptId("t-" + key + "-a1").started(123L).budgetLeftS(42L).args("{\"to\":\"bob\"}").build();
    }

    @Test
    void recordsRoundTripFieldForFieldInOrder() throws Exception {
        Path dir = tmp.resolve("j");
        JournalRecord outcome = JournalRecord.of(RecordType.OUTCOME).task("t").actor("alice").call("send").kind(Kind.SEND)
                .intentKey("k1").attempt(1).attemptId("t-k1-a1").started(124L).outcome(OutcomeWord.RETRYABLE).effectApplied(Effect.NO)
                .retryAfterS(30L).deadlineLeftS(12L).message("503").result(null).probe(null).durationMs(8L).build();
        long i1;
        long i2;
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            i1 = j.append(intent("k1"));
            i2 = j.append(outcome);
            assertThat(j.read(i1)).contains(intent("k1"));
        }
        List<JournalRecord> all = new ArrayList<>();
        try (ChronicleJournal r = ChronicleJournal.openReader(dir)) {
            r.replay((i, rec) -> all.add(rec));
            assertThat(r.read(i2)).get().isEqualTo(outcome);
        }
        assertThat(all).containsExactly(intent("k1"), outcome);
    }

    @Test
    void theLeanIndexReplayBuildsTheSameIndexAsAFullOne() throws Exception {
        Path dir = tmp.resolve("j");
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(intent("a"));
            j.append(JournalRecord.of(RecordType.OUTCOME).intentKey("a").attempt(1).started(123L).outcome(OutcomeWord.OK)
                    .effectApplied(Effect.YES).result("{\"x\":1}").durationMs(3L).build());
            j.append(intent("b"));
            j.append(JournalRecord.of(RecordType.OUTCOME).intentKey("b").attempt(1).started(123L).outcome(OutcomeWord.RETRYABLE)
                    .effectApplied(Effect.NO).retryAfterS(30L).message("429").durationMs(3L).build());
            j.append(intent("c"));
            j.append(JournalRecord.of(RecordType.PROBE).intentKey("c").attempt(1).started(200L).probe(ProbeResult.FOUND)
                    .outcome(OutcomeWord.OK).effectApplied(Effect.YES).result("\"v\"").build());
            var full = new dev.effectful.core.reentry.LocalIntentIndex();
            var lean = new dev.effectful.core.reentry.LocalIntentIndex();
            j.replay(full::apply);
            j.replayForIndex(lean::apply);
            for (String k : List.of("a", "b", "c")) {
                assertThat(lean.get(k)).as(k).isEqualTo(full.get(k)).isPresent();
            }
        }
    }

    @Test
    void secondWriterIsRefusedNamingTheHolder() throws Exception {
        Path dir = tmp.resolve("j");
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            assertThatThrownBy(() -> ChronicleJournal.openWriter(dir, false, null, null))
                    .hasMessageContaining("in use by pid " + ProcessHandle.current().pid());
            assertThat(JournalLock.isHeld(dir)).isTrue();
        }
        assertThat(JournalLock.isHeld(dir)).isFalse();
        ChronicleJournal.openWriter(dir, false, null, null).close();
    }

    @Test
    void filesAreOwnerOnly() throws Exception {
        Path dir = tmp.resolve("j");
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(intent("k"));
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as(f.toString())
                        .isEqualTo("rw-------");
            }
        }
    }

    @Test
    void readerRejectsADirectoryThatIsNotAJournal() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("empty"));
        assertThatThrownBy(() -> ChronicleJournal.openReader(dir)).hasMessageContaining("not an Effectful journal");
    }
}

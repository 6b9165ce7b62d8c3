package dev.effectful.core.journal;

import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.runtime.engine.JournalRefusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which directories may become a journal, and that no other is ever changed. */
class JournalDirectoryTest {

    @TempDir
    Path tmp;

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void aNewDirectoryIsCreatedOwnerOnly() throws Exception {
        Path dir = tmp.resolve("a/b/journal");
        JournalFiles.ensureDirectory(dir);
        assertThat(mode(dir)).isEqualTo("rwx------");
    }

    @Test
    void anExistingNonEmptyDirectoryThatIsNoJournalIsRefusedAndLeftAsItWas() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("project"));
        Files.writeString(dir.resolve("pom.xml"), "<project/>");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThatThrownBy(() -> ChronicleJournal.openWriter(dir, false, null, null))
                .isInstanceOfSatisfying(JournalDirectoryException.class, e -> {
                    assertThat(e.problem().cause()).isEqualTo(JournalProblem.Cause.NOT_A_JOURNAL);
                    assertThat(JournalRefusal.status(e.problem())).isEqualTo(Status.PERMANENT);
                    assertThat(e.getMessage()).contains("'pom.xml'", "effectful.journal.dir", "new or empty directory");
                });
        assertThat(mode(dir)).isEqualTo("rwxr-xr-x");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("pom.xml");
        }
    }

    @Test
    void anExistingEmptyDirectoryIsUsedAndMadeOwnerOnly() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("empty"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(JournalRecord.of(RecordType.INTENT).intentKey("k").build());
        }
        assertThat(mode(dir)).isEqualTo("rwx------");
        assertThat(JournalFiles.looksLikeJournal(dir)).isTrue();
    }

    @Test
    void anExistingJournalIsUsedAndItsOwnFilesTightenedButNotOthers() throws Exception {
        Path dir = tmp.resolve("journal");
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(JournalRecord.of(RecordType.INTENT).intentKey("k").build());
        }
        Path notes = Files.writeString(dir.resolve("NOTES.txt"), "moved a damaged file aside");
        Files.setPosixFilePermissions(notes, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(dir.resolve("metadata.cq4t"), PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        ChronicleJournal.openWriter(dir, false, null, null).close();
        assertThat(mode(dir)).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("metadata.cq4t"))).isEqualTo("rw-------");
        assertThat(mode(notes)).isEqualTo("rw-r--r--");
    }

    @Test
    void aPathThatIsAFileOrUnderAFileIsRefusedForGood() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        for (Path p : List.of(file, file.resolve("journal"))) {
            assertThatThrownBy(() -> JournalFiles.ensureDirectory(p))
                    .isInstanceOfSatisfying(JournalDirectoryException.class, e ->
                            assertThat(e.problem().cause()).isEqualTo(JournalProblem.Cause.NOT_A_DIRECTORY));
        }
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    @Test
    void aDirectoryThatCannotBeCreatedForPermissionIsRefusedForGood() throws Exception {
        Path locked = Files.createDirectory(tmp.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
        try {
            if (Files.isWritable(locked)) {
                return; // running as root: nothing is denied
            }
            assertThatThrownBy(() -> JournalFiles.ensureDirectory(locked.resolve("journal")))
                    .isInstanceOfSatisfying(JournalDirectoryException.class, e ->
                            assertThat(e.problem().cause()).isEqualTo(JournalProblem.Cause.PERMISSION_DENIED));
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void theOnePlaceThatMapsCausesToOutcomes() {
        for (JournalProblem.Cause c : JournalProblem.Cause.values()) {
            Outcome<Object> o = JournalRefusal.outcome(new JournalProblem(c, "why"));
            assertThat(o.effectApplied()).isEqualTo(dev.effectful.EffectApplied.NO);
            assertThat(o.message()).isEqualTo("why; the call was not made");
        }
        assertThat(JournalRefusal.outcome(new JournalProblem(JournalProblem.Cause.MISCONFIGURED, "m")).status()).isEqualTo(Status.PERMANENT);
        assertThat(JournalRefusal.outcome(new JournalProblem(JournalProblem.Cause.NOT_A_JOURNAL, "m")).status()).isEqualTo(Status.PERMANENT);
        assertThat(JournalRefusal.status(new JournalProblem(JournalProblem.Cause.PERMISSION_DENIED, "m"))).isEqualTo(Status.PERMANENT);
        assertThat(JournalRefusal.status(new JournalProblem(JournalProblem.Cause.DISK_FULL, "m"))).isEqualTo(Status.RETRYABLE);
        Outcome<Object> held = JournalRefusal.outcome(new JournalProblem(JournalProblem.Cause.LOCK_HELD, "m"));
        assertThat(held.status()).isEqualTo(Status.RETRYABLE);
        assertThat(held.retryAfterS()).isEqualTo(1L);
    }
}

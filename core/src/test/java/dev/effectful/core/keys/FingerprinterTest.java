package dev.effectful.core.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FingerprinterTest {

    @TempDir
    Path dir;

    @Test
    void createsAnOwnerOnlySecretOfThirtyTwoBytes() throws IOException {
        Fingerprinter.forJournal(dir);
        Path secret = dir.resolve("secret.key");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("rw-------");
        assertThat(Files.size(secret)).isEqualTo(32);
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(secret);
        }
    }

    @Test
    void createsAMissingJournalDirectoryOwnerOnly() throws IOException {
        Path journal = dir.resolve("a/journal");
        Fingerprinter.forJournal(journal);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal))).isEqualTo("rwx------");
        assertThat(journal.resolve("secret.key")).isRegularFile();
    }

    @Test
    void theSameJournalGivesTheSameFingerprints() throws IOException {
        String first = Fingerprinter.forJournal(dir).fingerprint("4242");
        String second = Fingerprinter.forJournal(dir).fingerprint("4242");
        assertThat(second).isEqualTo(first).matches("hmac:[0-9a-f]{32}");
    }

    @Test
    void equalValuesGiveEqualFingerprintsAndDifferentValuesDifferentOnes() throws IOException {
        Fingerprinter f = Fingerprinter.forJournal(dir);
        assertThat(f.fingerprint(Map.of("a", 1, "b", 2))).isEqualTo(f.fingerprint(Map.of("b", 2, "a", 1)));
        assertThat(f.fingerprint("4242")).isNotEqualTo(f.fingerprint("4243"));
    }

    @Test
    void anotherJournalGivesDifferentFingerprints(@TempDir Path other) throws IOException {
        assertThat(Fingerprinter.forJournal(other).fingerprint("4242"))
                .isNotEqualTo(Fingerprinter.forJournal(dir).fingerprint("4242"));
    }

    @Test
    void neverContainsThePlaintextNorItsPlainHash() throws IOException {
        Fingerprinter f = Fingerprinter.forJournal(dir);
        String secret = "123456";
        String fingerprint = f.fingerprint(secret);
        assertThat(fingerprint).doesNotContain(secret);
        // printf '"123456"' | sha256sum | cut -c1-32: what an unkeyed hash would give away
        assertThat(fingerprint).isNotEqualTo("hmac:c2b3808e6ce1f7c81b916619b0a914d1");
        assertThat(f.fingerprint(List.of(secret))).doesNotContain(secret);
    }

    @Test
    void fallsBackToToStringForValuesWithoutCanonicalForm() throws IOException {
        Fingerprinter f = Fingerprinter.forJournal(dir);
        assertThat(f.fingerprint(Double.NaN)).isEqualTo(f.fingerprint(Double.NaN)).startsWith("hmac:");
    }

    @Test
    void refusesASecretReadableByGroupOrOthers() throws IOException {
        Fingerprinter.forJournal(dir);
        Path secret = dir.resolve("secret.key");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r-----"));
        assertThatThrownBy(() -> Fingerprinter.forJournal(dir))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("owner only")
                .hasMessageContaining("chmod 600");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw----r--"));
        assertThatThrownBy(() -> Fingerprinter.forJournal(dir)).isInstanceOf(IOException.class);
    }

    @Test
    void refusesADamagedSecret() throws IOException {
        Fingerprinter.forJournal(dir);
        Files.write(dir.resolve("secret.key"), new byte[5]);
        assertThatThrownBy(() -> Fingerprinter.forJournal(dir))
                .isInstanceOf(IOException.class).hasMessageContaining("5 bytes");
    }
}

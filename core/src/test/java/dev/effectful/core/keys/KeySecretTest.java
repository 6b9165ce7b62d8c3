package dev.effectful.core.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A secret that intent keys depend on never changes silently. */
class KeySecretTest {

    @TempDir
    Path dir;

    @Test
    void theFirstKeyRecordsTheSecretsIdOwnerOnly() throws IOException {
        Fingerprinter f = Fingerprinter.forJournal(dir);
        assertThat(dir.resolve(Fingerprinter.ID_FILE)).doesNotExist();
        f.fingerprint("not a key");
        assertThat(dir.resolve(Fingerprinter.ID_FILE)).as("an argument's fingerprint needs no record").doesNotExist();
        String key = f.fingerprintForKey("tok-1");
        assertThat(key).isEqualTo(f.fingerprint("tok-1"));
        assertThat(Fingerprinter.recordedId(dir)).isEqualTo(f.id()).startsWith("hmac:").doesNotContain("tok");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(Fingerprinter.ID_FILE))))
                .isEqualTo("rw-------");
        assertThat(Fingerprinter.forJournal(dir).fingerprintForKey("tok-1")).as("the same secret: the same key").isEqualTo(key);
    }

    @Test
    void aJournalFromBeforeTheRecordGetsItsSecretRecordedAtItsFirstOpen() throws IOException {
        Fingerprinter earlier = Fingerprinter.forJournal(dir); // as the earlier version made it: no id file
        assertThat(dir.resolve(Fingerprinter.ID_FILE)).doesNotExist();
        KeyFormat.markAtOpen(dir, true);
        Fingerprinter.forJournal(dir);
        assertThat(Fingerprinter.recordedId(dir)).isEqualTo(earlier.id());
        Files.delete(dir.resolve("secret.key"));
        assertThatThrownBy(() -> Fingerprinter.forJournal(dir).fingerprintForKey("tok-1"))
                .isInstanceOf(KeySecretException.class).hasMessageContaining("was missing");
    }

    @Test
    void aMissingSecretRefusesKeysNamingTheFileAndTheFixUntilAcknowledged() throws IOException {
        Fingerprinter.forJournal(dir).fingerprintForKey("tok-1");
        Files.delete(dir.resolve("secret.key"));

        Fingerprinter after = Fingerprinter.forJournal(dir);
        assertThatThrownBy(() -> after.fingerprintForKey("tok-1")).isInstanceOf(KeySecretException.class)
                .hasMessageContaining(dir.resolve("secret.key").toString()).hasMessageContaining("was missing")
                .hasMessageContaining("secret --acknowledge-new").hasMessageNotContaining("tok-1")
                .matches(e -> !((KeySecretException) e).retryable());
        assertThat(after.fingerprint("an argument")).as("arguments are still fingerprinted").startsWith("hmac:");

        String accepted = Fingerprinter.acknowledgeNew(dir);
        assertThat(accepted).isEqualTo(after.id());
        Fingerprinter acknowledged = Fingerprinter.forJournal(dir);
        assertThat(acknowledged.fingerprintForKey("tok-1")).startsWith("hmac:");
        assertThat(Fingerprinter.recordedId(dir)).isEqualTo(accepted);
    }

    @Test
    void aReplacedSecretIsRefusedAndARestoredOneIsTakenBackWhileRunning() throws IOException {
        Fingerprinter original = Fingerprinter.forJournal(dir);
        String key = original.fingerprintForKey("tok-1");
        byte[] backup = Files.readAllBytes(dir.resolve("secret.key"));
        byte[] other = new byte[32];
        new SecureRandom().nextBytes(other);
        Files.write(dir.resolve("secret.key"), other);

        Fingerprinter replaced = Fingerprinter.forJournal(dir);
        assertThatThrownBy(() -> replaced.fingerprintForKey("tok-1")).isInstanceOf(KeySecretException.class)
                .hasMessageContaining("is not the one");
        Files.write(dir.resolve("secret.key"), backup);
        AtomicReference<String> again = new AtomicReference<>();
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            try {
                again.set(replaced.fingerprintForKey("tok-1"));
                return true;
            } catch (KeySecretException stillRefused) {
                return false;
            }
        });
        assertThat(again.get()).as("the restored secret gives the journal's keys again").isEqualTo(key);
    }

    @Test
    void aFleetKeyIsAdoptedByAJournalWithoutKeysAndRefusedByOneKeyedWithAnother() throws IOException {
        byte[] fleetKey = new byte[32];
        new SecureRandom().nextBytes(fleetKey);
        Path fresh = dir.resolve("fresh");
        Fingerprinter adopting = Fingerprinter.forJournal(fresh);
        adopting.joinFleet(candidate -> fleetKey.clone());
        String key = adopting.fingerprintForKey("tok-1");
        assertThat(Files.readAllBytes(fresh.resolve("secret.key"))).isEqualTo(fleetKey);
        Path other = dir.resolve("other");
        Fingerprinter second = Fingerprinter.forJournal(other);
        second.joinFleet(candidate -> fleetKey.clone());
        assertThat(second.fingerprintForKey("tok-1")).as("a second host: the same key").isEqualTo(key);
        assertThat(Fingerprinter.forJournal(other).fingerprintForKey("tok-1")).as("kept in its journal").isEqualTo(key);

        Path keyedAlone = dir.resolve("alone");
        Fingerprinter.forJournal(keyedAlone).fingerprintForKey("tok-1");
        Fingerprinter joining = Fingerprinter.forJournal(keyedAlone);
        joining.joinFleet(candidate -> fleetKey.clone());
        assertThatThrownBy(() -> joining.fingerprintForKey("tok-1")).isInstanceOf(KeySecretException.class)
                .hasMessageContaining(keyedAlone.resolve("secret.key").toString()).hasMessageContaining("fleet's");

        Path first = dir.resolve("first");
        Fingerprinter firstHost = Fingerprinter.forJournal(first);
        firstHost.joinFleet(candidate -> candidate);
        assertThat(firstHost.fingerprintForKey("tok-1")).as("the first host's secret becomes the fleet's")
                .isEqualTo(firstHost.fingerprint("tok-1"));

        Fingerprinter down = Fingerprinter.forJournal(dir.resolve("down"));
        down.joinFleet(candidate -> {
            throw new IOException("connection refused");
        });
        assertThatThrownBy(() -> down.fingerprintForKey("tok-1")).isInstanceOf(KeySecretException.class)
                .hasMessageContaining("connection refused").matches(e -> ((KeySecretException) e).retryable());
    }
}

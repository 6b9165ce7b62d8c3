package dev.effectful.cli;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.Effect;
import dev.effectful.cli.TestJournals.Run;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.DamageAcknowledgements;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code unresolved} lists what a person must check apart from what the next call settles
 * by itself, and {@code verify} exits 0 sound, 1 damaged, 3 only when intents wait for a person.
 * {@code verify} names a damaged record and {@code --acknowledge} records a person's look.
 */
class VerifyExitCodesTest {

    @TempDir
    Path tmp;

    private static final String K_IDEMPOTENT = "000000000000000000000000000000a1";
    private static final String K_KEYABLE = "000000000000000000000000000000a2";
    private static final String K_PROBE = "000000000000000000000000000000a3";
    private static final String K_SEND = "000000000000000000000000000000a4";

    private static JournalRecord intent(String call, String kind, String key, String reentry) {
        return JournalRecord.of(RecordType.INTENT).task("t-1").call(call).kind(Kind.fromWord(kind)).intentKey(key).attempt(1)
                .started(TestJournals.T0).args("{\"id\":\"" + key.substring(28) + "\"}").reentry(reentry).build();
    }

    private Path journal(boolean withPersonIntent) throws Exception {
        Path dir = tmp.resolve(withPersonIntent ? "person" : "settling");
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(intent("set_flag", "idempotent", K_IDEMPOTENT, "-"));          // crashed: runs again safely
            j.append(intent("create_doc", "create", K_KEYABLE, "keyable"));       // keyable create: runs again
            j.append(intent("charge", "money", K_PROBE, "probe"));                // has a probe: probed first
            j.append(JournalRecord.of(RecordType.OUTCOME).task("t-1").call("charge").kind(Kind.MONEY).intentKey(K_PROBE)
                    .attempt(1).started(TestJournals.T0 + 5).outcome(OutcomeWord.UNKNOWN).effectApplied(Effect.UNKNOWN).build());
            if (withPersonIntent) {
                j.append(intent("send_sms", "send", K_SEND, "-"));                // no probe: held for a person
            }
        }
        return dir;
    }

    @Test
    void intentsTheNextCallSettlesAreListedApartAndDoNotFailAnything() throws Exception {
        Path dir = journal(false);
        Run u = TestJournals.cli("--dir", dir.toString(), "unresolved");
        assertThat(u.code()).as(u.out()).isZero();
        assertThat(u.out()).contains("no intents wait for a person", "Settle on next call (3)", K_IDEMPOTENT, K_KEYABLE, K_PROBE);
        Run v = TestJournals.cli("--dir", dir.toString(), "verify");
        assertThat(v.code()).as(v.out()).isZero();
        assertThat(v.out()).contains("settle on next call", "sound");
    }

    @Test
    void anIntentAPersonMustCheckIsExitThreeAndListedFirst() throws Exception {
        Path dir = journal(true);
        Run u = TestJournals.cli("--dir", dir.toString(), "unresolved");
        assertThat(u.code()).isEqualTo(3);
        String person = u.out().substring(0, u.out().indexOf("Settle on next call"));
        String settle = u.out().substring(u.out().indexOf("Settle on next call"));
        assertThat(person).contains(K_SEND).doesNotContain(K_IDEMPOTENT, K_KEYABLE, K_PROBE);
        assertThat(settle).contains(K_IDEMPOTENT, K_KEYABLE, K_PROBE).doesNotContain(K_SEND);
        Run json = TestJournals.cli("--dir", dir.toString(), "--json", "unresolved");
        assertThat(json.out()).contains("\"intent_key\":\"" + K_SEND + "\",\"attempt\":1,\"state\":\"no-outcome\",\"settles_on_next_call\":false");

        Run v = TestJournals.cli("--dir", dir.toString(), "verify");
        assertThat(v.code()).as(v.out()).isEqualTo(3);
        assertThat(v.out()).contains("sound; waiting for a person");
    }

    @Test
    void aDamagedRecordIsExitOneNamedByFileAndOffsetUntilAcknowledged() throws Exception {
        Path dir = journal(true);
        Path file;
        try (Stream<Path> s = Files.list(dir)) {
            file = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        byte[] b = Files.readAllBytes(file);
        int at = new String(b, StandardCharsets.ISO_8859_1).indexOf("create_doc");
        b[at] ^= 0x20; // the call name of the keyable create's intent: part of its identity
        Files.write(file, b);

        Run v = TestJournals.cli("--dir", dir.toString(), "verify");
        assertThat(v.code()).as(v.out()).isEqualTo(1);
        assertThat(v.out()).contains("DAMAGED: damaged record at " + file.getFileName() + " byte ",
                "a record whose task cannot be read", "verify --acknowledge");

        Run ack = TestJournals.cli("--dir", dir.toString(), "verify", "--acknowledge");
        assertThat(ack.out()).contains("acknowledged 1 damaged record(s)");
        assertThat(ack.code()).as("damage acknowledged; an intent still waits for a person\n" + ack.out()).isEqualTo(3);
        Path f = dir.resolve(DamageAcknowledgements.FILE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        assertThat(TestJournals.cli("--dir", dir.toString(), "verify").out()).contains("acknowledged: damaged record at");
    }
}

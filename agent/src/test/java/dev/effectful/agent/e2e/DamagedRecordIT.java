package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.ReentryApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: a journal record changed on disk is never guessed at. Real JVMs with the
 * real agent jar, a real journal whose cycle file is damaged between runs, and a loopback service
 * that counts every effect.
 */
class DamagedRecordIT {

    private static final Duration RUN = Duration.ofSeconds(90);

    @TempDir
    Path tmp;

    private ForkedApp ping(Path journal, EffectLedger ledger, String task, String id) {
        return ForkedApp.jdk(Jdk.current()).main(ReentryApp.class, "ping")
                .sysprop("effectful.journal.dir", journal)
                .sysprop("ledger", ledger.url())
                .sysprop("task", task)
                .sysprop("ids", id)
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"));
    }

    private Path logs() {
        return tmp.resolve("logs");
    }

    /** Changes one byte of the first intent record: in its arguments, or in its intent key. */
    private static void flipInFirstIntent(Path journal, boolean inKey) throws IOException {
        Path file;
        try (Stream<Path> s = Files.list(journal)) {
            file = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        byte[] b = Files.readAllBytes(file);
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int at;
        if (inKey) {
            int t = text.indexOf("t-dmg");
            at = findKey(text, t) + 5;
        } else {
            at = text.indexOf("\"p-1\"") + 1; // the arguments {"id":"p-1"}: only intent records carry them
        }
        assertThat(at).isPositive();
        b[at] ^= 0x01;
        Files.write(file, b);
    }

    /**
     * Where the first intent key after {@code from} starts: field 6 ({@code 0xBA 0x06}), on disk as its
     * 128 bits since the compact format (the wire's UUID code {@code 0xA0}, then 16 bytes).
     */
    private static int findKey(String text, int from) {
        int at = text.indexOf("\u00ba\u0006\u00a0", from);
        assertThat(at).isGreaterThan(from);
        return at + 3;
    }

    @Test
    void aDamagedRecordOfATaskHoldsThatTasksCallsOnly() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            assertThat(ping(journal, ledger, "t-dmg", "p-1").run(logs(), RUN).results().get("ping_p-1")).isEqualTo("done:ping:p-1");
            flipInFirstIntent(journal, false);

            ForkedApp again = ping(journal, ledger, "t-dmg", "p-1").run(logs(), RUN);
            assertThat(again.results().get("ping_p-1")).as(again.stderr())
                    .startsWith("THROWN {\"outcome\":\"unknown\"").contains("held", "damaged", "verify --acknowledge");
            assertThat(ledger.effects("ping", "p-1")).as("the body did not run again").isEqualTo(1);
            assertThat(again.stderr()).contains("damaged record at", "task t-dmg", "journal --dir");

            ForkedApp other = ping(journal, ledger, "t-other", "p-2").run(logs(), RUN);
            assertThat(other.results().get("ping_p-2")).as("another task is not held").isEqualTo("done:ping:p-2");
            assertThat(ledger.effects("ping", "p-2")).isEqualTo(1);
        }
    }

    @Test
    void aRecordWhoseTaskCannotBeReadHoldsEveryCallUntilAcknowledged() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            assertThat(ping(journal, ledger, "t-dmg", "p-1").run(logs(), RUN).results().get("ping_p-1")).isEqualTo("done:ping:p-1");
            flipInFirstIntent(journal, true);

            ForkedApp other = ping(journal, ledger, "t-other", "p-2").run(logs(), RUN);
            assertThat(other.results().get("ping_p-2")).as(other.stderr())
                    .startsWith("THROWN {\"outcome\":\"unknown\"").contains("whose task cannot be read", "verify --acknowledge");
            assertThat(ledger.effects("ping", "p-2")).as("held, body not run").isZero();
            assertThat(other.stderr()).contains("damaged record at", "a record whose task cannot be read");

            CliRun verify = CliRun.journal(journal, "verify");
            assertThat(verify.exitCode()).as(verify.stdout()).isEqualTo(1);
            assertThat(verify.stdout()).contains("DAMAGED: damaged record at", "byte ");

            CliRun ack = CliRun.journal(journal, "verify", "--acknowledge");
            assertThat(ack.stdout()).as(ack.stderr()).contains("acknowledged 1 damaged record");
            assertThat(ack.exitCode()).as("acknowledged damage no longer fails the check\n" + ack.stdout()).isZero();

            ForkedApp after = ping(journal, ledger, "t-other", "p-2").run(logs(), RUN);
            assertThat(after.results().get("ping_p-2")).as(after.stderr()).isEqualTo("done:ping:p-2");
            assertThat(ledger.effects("ping", "p-2")).isEqualTo(1);
        }
    }
}

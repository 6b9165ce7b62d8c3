package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.RedactionApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.keys.Fingerprinter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @Redact} value quoted by an exception message, a nested cause or a returned
 * value is found in plaintext nowhere Effectful writes or hands out: not in any journal file, the
 * CLI's {@code export} and {@code show}, the outcome the caller got, nor the application's stdout
 * and stderr with the agent logging at debug level. Its fingerprint stands in its place.
 */
class RedactionIT {

    private static final String TOKEN = "tok-S3cr3t-9f8e7d6c";
    private static final String OLD = "old-S3cr3t-aaaa";
    private static final String NEW = "new-S3cr3t-bbbb";
    private static final List<String> SECRETS = List.of(TOKEN, OLD, NEW);

    @TempDir
    Path tmp;

    @Test
    void secretsStaySecretEverywhere() throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = ForkedApp.jdk(Jdk.current()).main(RedactionApp.class)
                .sysprop("effectful.journal.dir", journal)
                .sysprop("effectful.log.level", "debug")
                .sysprop("token", TOKEN).sysprop("old", OLD).sysprop("new", NEW)
                .env("HOME", tmp.resolve("home").toString())
                .run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();
        String token = Fingerprinter.forJournal(journal).fingerprint(TOKEN);
        String old = Fingerprinter.forJournal(journal).fingerprint(OLD);

        // what the caller (and through it the model) got: the fingerprint where the secret was
        assertThat(r.get("login")).startsWith("THROWN {\"outcome\":\"permanent\"")
                .contains("token " + token + " rejected");
        assertThat(r.get("push")).startsWith("THROWN {\"outcome\":\"retryable\"").contains(token);
        assertThat(r.get("rotate")).startsWith("THROWN {\"outcome\":\"unknown\"").contains(old);
        assertThat(r.get("session_first")).isEqualTo("untouched");
        // a repeat of the ok call whose result held the secret: ok, not stored, body not run again
        assertThat(r.get("session_repeat")).startsWith("{\"outcome\":\"ok\",\"effect_applied\":\"yes\"")
                .contains("the original result was not stored (it held a redacted value)");
        assertThat(r.get("session_bodies")).isEqualTo("1");

        // every byte of every journal file
        try (Stream<Path> files = Files.walk(journal)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                for (String secret : SECRETS) {
                    assertThat(bytes).as("%s holds %s", f.getFileName(), secret).doesNotContain(secret);
                }
            }
        }
        JournalContents j = JournalContents.of(journal);
        JournalRecord login = j.where(x -> "login".equals(x.call()) && x.type() == RecordType.OUTCOME).get(0);
        assertThat(login.message()).contains("token " + token + " rejected");
        JournalRecord session = j.where(x -> "issue_session".equals(x.call()) && x.type() == RecordType.OUTCOME).get(0);
        assertThat(session.result()).as("stored with the secret replaced").contains("session for " + token);
        assertThat(session.message()).contains("redacted");

        CliRun export = CliRun.journal(journal, "export");
        CliRun show = CliRun.journal(journal, "show", "t-red");
        assertThat(export.exitCode()).as(export.toString()).isZero();
        assertThat(show.exitCode()).as(show.toString()).isZero();
        assertThat(export.stdout()).contains("token " + token + " rejected");
        assertThat(show.stdout()).contains(token);

        // stdout and stderr: the app printed every outcome and every thrown stack trace, causes included
        assertThat(app.stderr()).as("the app logged the thrown outcomes with their causes")
                .contains("ToolOutcomeException").contains("java.net.ConnectException");
        assertThat(app.stderr()).contains("effectful attempt");
        for (String secret : SECRETS) {
            for (String text : List.of(app.stdout(), app.stderr(), export.stdout(), export.stderr(), show.stdout(),
                    show.stderr())) {
                assertThat(text).doesNotContain(secret);
            }
        }
    }

}

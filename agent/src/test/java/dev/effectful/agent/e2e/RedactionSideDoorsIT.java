package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.RedactionSideDoorApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.json.JsonText;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @Redact} value has no side door. One application ({@link RedactionSideDoorApp}) runs per
 * JDK, each tool with its own secret let out through one door: a suppressed exception, a cause's
 * {@code toString()}, depth 21 of a cause chain, a record component, a bean property, a {@code byte[]},
 * a {@code char[]} and a {@code ByteBuffer} quoted as Base64, hex or text, a {@code byte[]} returned (Jackson stores
 * it as Base64, and a repeat would hand it back), a String returned inside bytes (Base64 at another
 * alignment), the head kept of a 70 KB argument, a JSON body escaped as Jackson escapes. Each test
 * greps every byte written for its door's secret in every form it can take (plain, JSON-escaped,
 * collapsed, Base64 standard and URL at the three alignments, hex): each journal file raw, the
 * CLI's {@code export}, {@code show} and {@code unresolved}, the application's stdout and stderr
 * (where it printed each thrown outcome's stack trace, causes and suppressed ones included), and
 * checks that the door was really used (the fingerprint stands where the secret was).
 */
class RedactionSideDoorsIT {

    private static final Map<String, String> SECRETS = new LinkedHashMap<>();

    static {
        SECRETS.put("upload", "sUpPr-9c1f2e3d4b5a6978");
        SECRETS.put("verify", "t0Str-8a7b6c5d4e3f2019");
        SECRETS.put("relay", "dEeP0-7f6e5d4c3b2a1908");
        SECRETS.put("sign_in", "r3cTk-6e5d4c3b2a190817");
        SECRETS.put("connect", "b3aNs-5d4c3b2a19081726");
        SECRETS.put("sign", "bYt3s-4c3b2a1908172635");
        SECRETS.put("stream", "bUfFr-0817263544536271");
        SECRETS.put("unlock", "cH4rs-6354453627180910");
        SECRETS.put("derive", "dR1vE-3b2a190817263544");
        SECRETS.put("seal", "wR4pd-2a1908172635445f");
        SECRETS.put("archive", "h34dX-1908172635445362");
        SECRETS.put("notify", "esc\bpe\fd-0817263544");
    }

    /** Every byte one run wrote or printed, by where it was found. */
    record Run(Path journal, Map<String, String> results, String stderr, JournalContents contents,
               Map<String, String> written) {
    }

    private static final Map<String, Run> RUNS = new HashMap<>();

    @TempDir
    static Path tmp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private static synchronized Run run(Jdk jdk) throws Exception {
        Run done = RUNS.get(jdk.name());
        if (done != null) {
            return done;
        }
        Path dir = tmp.resolve(jdk.name());
        Path journal = dir.resolve("journal");
        ForkedApp app = ForkedApp.jdk(jdk).main(RedactionSideDoorApp.class)
                .sysprop("effectful.journal.dir", journal)
                .sysprop("effectful.log.level", "debug")
                .env("HOME", dir.resolve("home").toString()).sysprop("user.home", dir.resolve("home"));
        SECRETS.forEach((tool, secret) -> app.sysprop("secret." + tool, secret));
        app.run(dir.resolve("logs"), Duration.ofSeconds(120));
        assertThat(app.stdout()).as("stderr: %s", app.stderr()).contains("DONE");

        Map<String, String> written = new LinkedHashMap<>();
        // every file the run left: the journal's (cycle files, index, key...), the app's stdout and stderr
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                written.put(dir.relativize(f).toString(), new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
        for (List<String> command : List.of(List.of("export"), List.of("show", "t-doors"), List.of("unresolved"))) {
            CliRun cli = CliRun.journal(journal, command.toArray(String[]::new));
            assertThat(cli.exitCode()).as(cli.toString()).isIn(0, 3);
            written.put("journal " + String.join(" ", command) + " (stdout)", cli.stdout());
            written.put("journal " + String.join(" ", command) + " (stderr)", cli.stderr());
        }
        assertThat(written.get("journal export (stdout)")).contains("\"call\":\"notify\"");
        Run run = new Run(journal, app.results(), app.stderr(), JournalContents.of(journal), written);
        RUNS.put(jdk.name(), run);
        return run;
    }

    /** Every form the secret can be written in: as it is, JSON-escaped, collapsed, and its UTF-8 bytes as Base64 and hex. */
    static Set<String> forms(String secret) {
        Set<String> forms = new LinkedHashSet<>();
        forms.add(secret);
        forms.add(JsonText.escaped(secret));
        forms.add(secret.replaceAll("[\\s\\p{Cntrl}]+", " "));
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        forms.add(HexFormat.of().formatHex(bytes));
        forms.add(HexFormat.of().formatHex(bytes).toUpperCase(Locale.ROOT));
        for (Base64.Encoder encoder : List.of(Base64.getEncoder(), Base64.getUrlEncoder())) {
            for (int offset = 0; offset < 3; offset++) {
                // inside a longer Base64 text the secret's bytes, offset bytes in, are these characters
                String all = encoder.encodeToString(concat(new byte[offset], bytes));
                forms.add(all.substring((8 * offset + 5) / 6, 8 * (offset + bytes.length) / 6));
            }
        }
        return forms;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** The door's secret, in any of its forms, is nowhere in what the run wrote. */
    private static void nowhere(Run run, String tool, String... alsoLookFor) {
        List<String> leaks = new ArrayList<>();
        Set<String> forms = forms(SECRETS.get(tool));
        forms.addAll(List.of(alsoLookFor));
        run.written().forEach((where, bytes) -> {
            for (String form : forms) {
                if (bytes.contains(form)) {
                    leaks.add(where + " holds " + printable(form));
                }
            }
        });
        assertThat(leaks).as("the @Redact value of %s leaked", tool).isEmpty();
    }

    private static String printable(String s) {
        return s.replace("\b", "\\b").replace("\f", "\\f");
    }

    private static JournalRecord outcomeOf(Run run, String call) {
        return run.contents().where(x -> call.equals(x.call()) && x.type() == RecordType.OUTCOME).get(0);
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aSuppressedException(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "upload");
        assertThat(run.results().get("upload")).startsWith("THROWN {\"outcome\":\"unknown\"");
        assertThat(run.stderr()).contains("Suppressed: java.io.IOException: closing stream for hmac:");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aCauseWhoseToStringAloneQuotesIt(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "verify");
        assertThat(run.stderr()).contains("Caused by: dev.effectful.agent.e2e.apps.RedactionSideDoorTools$TokenRejected[token=hmac:");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void depth21OfACauseChain(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "relay");
        assertThat(run.stderr()).contains("java.lang.IllegalStateException: hop 20")
                .contains("Caused by: java.lang.IllegalArgumentException: relay refused hmac:");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aRecordComponentQuotedAlone(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "sign_in");
        assertThat(run.results().get("sign_in")).contains("token hmac:");
        assertThat(outcomeOf(run, "sign_in").message()).contains("token hmac:").contains(" expired");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aBeanPropertyQuotedAlone(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "connect");
        assertThat(outcomeOf(run, "connect").message()).contains("key hmac:").contains(" revoked");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aByteArrayQuotedAsBase64AndHex(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "sign");
        assertThat(outcomeOf(run, "sign").message()).matches(".*key hmac:[0-9a-f]{32} \\(hex hmac:[0-9a-f]{32}\\) refused.*");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aByteBufferQuotedAsText(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "stream");
        assertThat(outcomeOf(run, "stream").message()).contains("stream hmac:");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aCharArrayQuotedAsBase64(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "unlock");
        assertThat(outcomeOf(run, "unlock").message()).contains("pin hmac:");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aByteArrayReturnedIsNotStoredNorHandedBackByARepeat(Jdk jdk) throws Exception {
        Run run = run(jdk);
        assertThat(run.results().get("derive_first")).isEqualTo("untouched");
        assertThat(run.results().get("derive_repeat")).as("the repeat").isNotEqualTo("HANDED BACK")
                .startsWith("THROWN {\"outcome\":\"ok\"")
                .contains("the original result was not stored (it held a redacted value)");
        assertThat(run.results().get("derive_bodies")).isEqualTo("1");
        nowhere(run, "derive");
        assertThat(outcomeOf(run, "derive").result()).startsWith("{\"$redacted\":");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aStringReturnedInsideBytesAtAnotherBase64Alignment(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "seal");
        assertThat(outcomeOf(run, "seal").result()).startsWith("{\"$redacted\":");
        assertThat(run.results().get("seal_repeat")).startsWith("THROWN {\"outcome\":\"ok\"");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theHeadKeptOfATruncatedArgument(Jdk jdk) throws Exception {
        Run run = run(jdk);
        String secret = SECRETS.get("archive");
        // the head is 200 characters; the secret starts at the 191st: its first ten would be kept
        nowhere(run, "archive", secret.substring(0, 6));
        JournalRecord intent = run.contents().where(x -> "archive".equals(x.call()) && x.type() == RecordType.INTENT).get(0);
        assertThat(intent.args()).contains("\"$truncated\":").contains("\"head\":\"" + "x".repeat(190) + "\"");
        assertThat(run.results().get("archive")).startsWith("archived ");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aSecretWithControlCharactersInAJsonBody(Jdk jdk) throws Exception {
        Run run = run(jdk);
        nowhere(run, "notify");
        assertThat(outcomeOf(run, "notify").message()).contains("\"token\":\"hmac:");
    }
}

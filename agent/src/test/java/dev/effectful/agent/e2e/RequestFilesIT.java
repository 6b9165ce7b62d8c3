package dev.effectful.agent.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.effectful.agent.e2e.apps.LiveResolveApp;
import dev.effectful.core.journal.ResolutionRequest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request files of {@code journal resolve} on a live journal, as production leaves them: a FIFO or a
 * directory where a request belongs, leftovers of an interrupted CLI or a killed writer, and files left by a
 * command run with {@code sudo}. The writer is a real JVM with the agent; the CLI a real process.
 */
class RequestFilesIT {

    private static final String OTHER_KEY = "0123456789abcdef0123456789abcdef";
    private static final String THIRD_KEY = "fedcba9876543210fedcba9876543210";

    @TempDir
    Path tmp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** The writer, stepped through control files, optionally run as another user. */
    private SteppedApp writer(Jdk jdk, Path journal, EffectLedger ledger, Path base, String... prefix) throws Exception {
        ControlFiles ctl = ControlFiles.create(base.resolve("ctl-" + System.nanoTime())).readableByAll();
        Files.setPosixFilePermissions(ctl.dir(), PosixFilePermissions.fromString("rwxrwxrwx"));
        return new SteppedApp(ForkedApp.jdk(jdk).main(LiveResolveApp.class).prefix(prefix)
                .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url()).sysprop("ctl", ctl.dir())
                .env("HOME", base.resolve("home").toString()).sysprop("user.home", base.resolve("home"))
                .start(tmp.resolve("logs")), ctl);
    }

    /** A transfer that times out (unknown, its effect landed), then is held: its intent key. */
    private static String heldTransfer(SteppedApp w, EffectLedger ledger, String id) throws Exception {
        assertThat(SteppedApp.outcome(w.run("transfer " + id)).get("outcome").asText()).isEqualTo("unknown");
        JsonNode held = SteppedApp.outcome(w.run("transfer " + id));
        assertThat(held.get("message").asText()).contains("held until a person resolves it");
        assertThat(ledger.effects("transfer", id)).isEqualTo(1);
        return held.get("intent_key").asText();
    }

    /**
     * A FIFO and a directory named like requests, an answer nobody read, and a killed writer's claimed
     * request: none of them blocks the watcher or the CLI; the resolve is recorded and the held call answered
     * within its budget; the leftovers of gone processes are removed, the odd files are skipped and named.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void oddAndStaleRequestFilesNeverBlockALiveResolve(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger(); SteppedApp w = writer(jdk, journal, ledger, tmp)) {
            String key = heldTransfer(w, ledger, "a");
            Path requests = Files.createDirectories(ResolutionRequest.dir(journal));
            Process fifo = new ProcessBuilder("mkfifo", requests.resolve(OTHER_KEY + ".json").toString()).start();
            assertThat(fifo.waitFor(10, TimeUnit.SECONDS) && fifo.exitValue() == 0).as("mkfifo").isTrue();
            Files.createDirectories(requests.resolve(THIRD_KEY + ".json"));
            Path oldAnswer = Files.writeString(requests.resolve(THIRD_KEY + ".refused"), "an answer nobody read");
            Files.setLastModifiedTime(oldAnswer, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
            Path killedWriters = Files.writeString(requests.resolve(OTHER_KEY + ".json.taken-999999999"), "{}");
            Path killedClis = Files.writeString(requests.resolve(OTHER_KEY + ".json.tmp-999999998"), "{");

            long t0 = System.nanoTime();
            CliRun yes = CliRun.journal(journal, "resolve", key, "--applied", "yes", "--note", "checked");
            assertThat(yes.exitCode()).as(yes.toString()).isZero();
            assertThat(yes.stdout()).contains("recorded by the running writer (pid " + w.app().pid() + ")");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));

            JsonNode repeat = SteppedApp.outcome(w.run("transfer a"));
            assertThat(repeat.get("outcome").asText()).isEqualTo("ok");
            assertThat(ledger.effects("transfer", "a")).isEqualTo(1);

            // a second held intent resolves as well: the watcher is not stuck on the FIFO
            String second = heldTransfer(w, ledger, "b");
            CliRun no = CliRun.journal(journal, "resolve", second, "--applied", "no");
            assertThat(no.exitCode()).as(no.toString()).isZero();

            assertThat(killedWriters).doesNotExist();
            assertThat(killedClis).doesNotExist();
            assertThat(oldAnswer).doesNotExist();
            assertThat(requests.resolve(OTHER_KEY + ".json")).exists();
            String err = w.app().stderr();
            assertThat(err).contains("skips " + requests.resolve(OTHER_KEY + ".json") + ": it is a FIFO, socket or device")
                    .contains("skips " + requests.resolve(THIRD_KEY + ".json") + ": it is a directory")
                    .contains("removed the stale request file");
            assertThat(Stream.of(err.split("\n")).filter(l -> l.contains("skips " + requests.resolve(OTHER_KEY + ".json"))))
                    .hasSize(1);
        }
    }

    /**
     * sudo: the CLI run as root against a journal another user's agent writes refuses, saying who owns it
     * and how to run it instead; a cycle file root left behind is named, with its owner and the fix, in the
     * agent's refusal (permanent) instead of a bare one, and so is a request directory root made. Needs root
     * and setpriv (to run the agent as nobody).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void filesOfASudoRunAreRefusedAndNamed(Jdk jdk) throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "skipped: needs root, to run the agent as another user (nobody) and the CLI as root");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")),
                "skipped: needs /usr/bin/setpriv to run the agent as another user");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path base = Files.createDirectories(tmp.resolve("u"));
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path journal = base.resolve("journal");
        String[] asNobody = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
        try (EffectLedger ledger = new EffectLedger()) {
            String key;
            try (SteppedApp w = writer(jdk, journal, ledger, base, asNobody)) {
                key = heldTransfer(w, ledger, "s");
                assertThat(Files.getOwner(journal).getName()).isEqualTo("nobody");

                CliRun asRoot = CliRun.journal(java.util.Map.of("SUDO_USER", "nobody"), journal, "resolve", key,
                        "--applied", "yes");
                assertThat(asRoot.exitCode()).as(asRoot.toString()).isEqualTo(4);
                assertThat(asRoot.stderr()).contains("belongs to nobody", "through sudo (SUDO_USER=nobody)",
                        "sudo -u nobody java -jar effectful-agent.jar journal --dir " + journal);
                assertThat(ResolutionRequest.dir(journal)).as("nothing written").doesNotExist();
            }
            // what an earlier 'sudo journal resolve' without a running agent leaves: a cycle file of root's
            Path cycle;
            try (Stream<Path> files = Files.list(journal)) {
                cycle = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
            }
            Files.setOwner(cycle, journal.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("root"));
            try (SteppedApp w = writer(jdk, journal, ledger, base, asNobody)) {
                JsonNode refused = SteppedApp.outcome(w.run("transfer t"));
                assertThat(refused.get("outcome").asText()).as(refused.toString()).isEqualTo("permanent");
                assertThat(refused.get("message").asText()).contains(cycle.toString(), "belongs to root",
                        "sudo chown -R nobody " + journal);
                assertThat(ledger.effects("transfer", "t")).isZero();
            }
            // and what 'sudo journal resolve' beside a live agent leaves: root's request directory
            Files.setOwner(cycle, journal.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
            Path requests = Files.createDirectories(ResolutionRequest.dir(journal));
            Files.setPosixFilePermissions(requests, PosixFilePermissions.fromString("rwx------"));
            Files.writeString(requests.resolve(key + ".json"), "{}");
            try (SteppedApp w = writer(jdk, journal, ledger, base, asNobody)) {
                JsonNode refused = SteppedApp.outcome(w.run("transfer u"));
                assertThat(refused.get("outcome").asText()).as(refused.toString()).isEqualTo("permanent");
                assertThat(refused.get("message").asText()).contains(requests.toString(), "belongs to root");
                assertThat(ledger.effects("transfer", "u")).isZero();
            }
        }
    }
}

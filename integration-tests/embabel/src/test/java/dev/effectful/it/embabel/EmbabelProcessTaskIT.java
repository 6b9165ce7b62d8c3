package dev.effectful.it.embabel;

import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Embabel with the agent as its only flag and no {@code Task.open}: Embabel's own tool loop
 * ({@code DefaultToolLoop}, tools from an {@code @LlmTool} object) runs in the task of the agent process's
 * id. The scripted model's rephrased retry of a charge whose answer was lost is probed, never run again;
 * outside any process each tool call is its own task and the same retry charges twice, which is why the
 * process's task matters. A process id is new after a restart, so a process that must survive one runs
 * inside the documented {@code Task.open} of a stable id: after a kill -9 the retry is probed.
 *
 * <p>Embabel is compiled for Java 21: the application ({@code src/app}) is compiled here with JDK 25's
 * {@code javac} and run on JDK 25. Without a JDK 25 every test is skipped, naming what is missing.
 */
class EmbabelProcessTaskIT {

    private static final String APP = "dev.effectful.it.embabel.app.EmbabelShopApp";

    private static Jdk jdk;
    private static String classPath;

    @TempDir
    Path tmp;

    private EffectLedger ledger;

    @BeforeAll
    static void compileTheApplicationWithJdk25() throws Exception {
        jdk = Jdk.jdk25().orElse(null);
        if (jdk == null) {
            return; // each test says it is skipped, and why
        }
        Path sources = Path.of(System.getProperty("effectful.app.sources"));
        Path classes = Files.createDirectories(Path.of(System.getProperty("effectful.app.classes")));
        String dependencies = System.getProperty("effectful.test.classpath");
        List<String> cmd = new ArrayList<>(List.of(Path.of(jdk.home(), "bin", "javac").toString(), "--release", "21",
                "-parameters", "-cp", dependencies, "-d", classes.toString()));
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> cmd.add(f.toString()));
        }
        Process javac = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(javac.waitFor(120, TimeUnit.SECONDS)).as("javac finished").isTrue();
        assertThat(javac.exitValue()).as("javac of src/app:%n%s", out).isZero();
        classPath = classes + File.pathSeparator + dependencies;
    }

    @BeforeEach
    void startLedger() throws IOException {
        Assumptions.assumeTrue(jdk != null, "skipped: Embabel needs Java 21 or newer and no JDK 25 was found at"
                + " effectful.jdk25.home='" + System.getProperty("effectful.jdk25.home", "") + "'");
        ledger = new EffectLedger();
    }

    @AfterEach
    void stopLedger() {
        if (ledger != null) {
            ledger.close();
        }
    }

    @Test
    void aToolLoopInAProcessIsItsTaskSoTheRephrasedRetryIsProbedNotCharged() throws Exception {
        ForkedApp app = shop("proc-7f3a", "-").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();

        assertThat(ledger.effects("charge", "o-7")).as("charges the service applied").isEqualTo(1);
        assertThat(r.get("answer")).isEqualTo("charge o-7: done:charge:o-7");
        assertThat(r.get("task_after")).as("the task closes with the loop").isEqualTo("none");
        assertThat(r.get("charge_bodies")).as("one body ran, in the process's task").startsWith("proc-7f3a@")
                .doesNotContain(",");

        List<JournalRecord> charges = JournalContents.of(tmp.resolve("journal")).forCall("charge_card");
        assertThat(charges).extracting(JournalRecord::task).containsOnly("proc-7f3a");
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT).extracting(JournalRecord::actor)
                .as("the process's user").containsOnly("u-alice");
        assertThat(charges).filteredOn(c -> c.type() == RecordType.INTENT).hasSize(1);
        assertThat(charges).filteredOn(c -> c.type() == RecordType.PROBE).extracting(JournalRecord::probe)
                .containsExactly(ProbeResult.FOUND);
    }

    @Test
    void outsideAnyProcessEachToolCallIsItsOwnTaskAndTheRetryChargesAgain() throws Exception {
        ForkedApp app = shop("-", "-").run(tmp.resolve("logs"), Duration.ofSeconds(120));
        assertThat(ledger.effects("charge", "o-7")).as("what the process's task prevents").isEqualTo(2);
        assertThat(app.results().get("charge_bodies").split(",")).hasSize(2);
    }

    @Test
    void afterAKillNineTheDocumentedTaskLineProbesInsteadOfChargingAgain() throws Exception {
        ForkedApp first = shop("proc-1", "order-o-7").sysprop("lose.ms", 60_000).start(tmp.resolve("logs"));
        // the service has applied the charge; its answer never comes: the process dies before it knows
        await().atMost(Duration.ofSeconds(90)).until(() -> ledger.effects("charge", "o-7") == 1);
        first.kill9();

        // Embabel makes a new process id on the restart; the order's task is the same
        ForkedApp second = shop("proc-2", "order-o-7").sysprop("phrasing", 2).run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = second.results();
        assertThat(ledger.effects("charge", "o-7")).as("charges the service applied").isEqualTo(1);
        assertThat(r.get("charge_bodies")).as("no body ran after the restart").isEmpty();
        assertThat(r.get("answer")).isEqualTo("charge o-7: done:charge:o-7");

        List<JournalRecord> charges = JournalContents.of(tmp.resolve("journal")).forCall("charge_card");
        assertThat(charges).extracting(JournalRecord::task).containsOnly("order-o-7");
        assertThat(charges).filteredOn(c -> c.type() == RecordType.PROBE).extracting(JournalRecord::probe)
                .containsExactly(ProbeResult.FOUND);
    }

    private ForkedApp shop(String process, String task) {
        return ForkedApp.jdk(jdk).classPath(classPath).main(APP, process, task)
                .sysprop("ledger", ledger.url())
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .env("HOME", tmp.resolve("home").toString());
    }
}

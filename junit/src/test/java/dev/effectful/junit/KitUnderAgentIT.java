package dev.effectful.junit;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.junit.apps.KitUnderAgentApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit in a test JVM that also runs the agent (the README's Install flag in Surefire's argLine): the
 * agent weaves the tool, stands aside for the kit's calls, and opens no journal, so the project directory
 * (the JVM's working directory) holds no {@code effectful-journal} afterwards and no kit task is left
 * unresolved anywhere; the kit's verdicts are those of a JVM without the agent.
 */
class KitUnderAgentIT {

    @TempDir
    Path tmp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aKitRunUnderTheAgentLeavesNoJournalAndPasses(Jdk jdk) throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));
        ForkedApp app = ForkedApp.jdk(jdk).main(KitUnderAgentApp.class).workDir(project)
                .run(tmp.resolve("logs"), Duration.ofSeconds(120));

        Map<String, String> r = app.results();
        assertThat(r).as(app.stdout() + app.stderr()).containsEntry("woven", "true")
                .containsEntry("kill", "PASS").containsEntry("passed", "true").containsEntry("interrupted", "false");
        assertThat(project.resolve("effectful-journal")).as(app.stderr()).doesNotExist();
        try (Stream<Path> left = Files.list(project)) {
            assertThat(left).as("what the run left in the project directory").isEmpty();
        }
    }
}

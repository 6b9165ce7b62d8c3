package dev.effectful.junit;

import dev.effectful.junit.apps.KitUnderAgentApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit in a test JVM that also runs the agent (the README's Install flag in Surefire's argLine): the
 * agent weaves the tool, stands aside for the kit's calls, and opens no journal, so the project directory
 * (the JVM's working directory) holds no {@code effectful-journal} afterwards and no kit task is left
 * unresolved anywhere; the kit's verdicts are those of a JVM without the agent. A real JVM with the real
 * agent jar, on JDK 17 and 25.
 */
class KitUnderAgentIT {

    private static final Path AGENT_JAR = Path.of(System.getProperty("effectful.agent.jar",
            "../agent/target/effectful-agent.jar")).toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    static List<String> javaHomes() {
        List<String> homes = new ArrayList<>(List.of(System.getProperty("java.home")));
        String jdk25 = System.getProperty("effectful.jdk25.home", "");
        if (!jdk25.isBlank() && Files.isExecutable(Path.of(jdk25, "bin", "java"))) {
            homes.add(jdk25);
        }
        return homes;
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void aKitRunUnderTheAgentLeavesNoJournalAndPasses(String javaHome) throws Exception {
        assertThat(AGENT_JAR).as("the agent jar (mvn package -pl agent)").isRegularFile();
        Path project = Files.createDirectories(tmp.resolve("project"));
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        Process p = new ProcessBuilder(javaHome + File.separator + "bin" + File.separator + "java",
                "-javaagent:" + AGENT_JAR, "-cp", System.getProperty("effectful.test.classpath"),
                KitUnderAgentApp.class.getName())
                .directory(project.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(ended && p.exitValue() == 0).as("the forked JVM ended well\n" + stdout + stderr).isTrue();

        Map<String, String> r = results(stdout);
        assertThat(r).as(stdout + stderr).containsEntry("woven", "true")
                .containsEntry("kill", "PASS").containsEntry("passed", "true").containsEntry("interrupted", "false");
        assertThat(project.resolve("effectful-journal")).as(stderr).doesNotExist();
        try (Stream<Path> left = Files.list(project)) {
            assertThat(left).as("what the run left in the project directory").isEmpty();
        }
    }

    /** Lines printed as {@code RESULT name value}, by name. */
    private static Map<String, String> results(String stdout) {
        Map<String, String> r = new LinkedHashMap<>();
        for (String line : stdout.split("\n")) {
            if (line.startsWith("RESULT ")) {
                String[] parts = line.substring(7).split(" ", 2);
                r.put(parts[0], parts.length > 1 ? parts[1].trim() : "");
            }
        }
        return r;
    }
}

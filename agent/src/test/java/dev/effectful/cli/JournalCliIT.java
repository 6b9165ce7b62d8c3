package dev.effectful.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The built jar as an operator runs it: {@code java -jar effectful-agent.jar journal ...}, a real process. */
class JournalCliIT {

    @TempDir
    Path tmp;

    private record Result(int code, String out, String err) {
    }

    private Result run(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("journal"));
        all.addAll(List.of(args));
        return runJar(all.toArray(String[]::new));
    }

    private Result runJar(String... args) throws Exception {
        String jar = System.getProperty("effectful.agent.jar");
        assertThat(jar).as("system property effectful.agent.jar").isNotBlank();
        assertThat(new File(jar)).exists();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar));
        cmd.addAll(List.of(args));
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().remove("EFFECTFUL_JOURNAL_DIR");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("CLI finished").isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * Failsafe JVMs lack the flags Chronicle needs to write (the parent pom gives them to surefire only),
     * so the synthetic journal is written by a child JVM that has them.
     */
    private static void writeScenario(Path dir) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
                "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "-Dchronicle.analytics.disable=true", "-Dchronicle.announcer.disable=true",
                "-cp", System.getProperty("java.class.path"), TestJournals.class.getName(), dir.toString());
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("journal writer").isZero();
    }

    @Test
    void exportFromTheJarPrintsEveryRecordAsJsonLines() throws Exception {
        Path dir = tmp.resolve("journal");
        writeScenario(dir);

        Result r = run("--dir", dir.toString(), "export");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> docs = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            docs.add(json.readTree(line));
        }
        assertThat(docs).hasSize(10);
        assertThat(docs.get(0).get("type").asText()).isEqualTo("intent");
        assertThat(docs.get(0).get("args").get("to").asText()).isEqualTo("a@example.com");
        assertThat(docs.get(1).get("result").get("id").asText()).isEqualTo("m-1");
    }

    @Test
    void theJarGivesExitCodesAndOneLineErrors() throws Exception {
        Path dir = tmp.resolve("journal");
        writeScenario(dir);
        assertThat(run("--dir", dir.toString(), "unresolved").code()).isEqualTo(3);
        assertThat(run("--dir", dir.toString(), "verify").code()).as("sound; intents wait for a person").isEqualTo(3);

        Result missing = run("--dir", tmp.resolve("nowhere").toString(), "tasks");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().strip()).doesNotContain("\n").startsWith("effectful journal: no journal at");

        Result typo = run("--dir", dir.toString(), "--store", "postgre", "tasks");
        assertThat(typo.code()).isEqualTo(2);
        assertThat(typo.err()).as("the stores this jar bundles are named")
                .contains("unknown store 'postgre' for --store: use local (this host's journal) or postgres");

        Result resolved = run("--dir", dir.toString(), "resolve", TestJournals.K_CRASH, "--applied", "no", "--note", "checked");
        assertThat(resolved.code()).as(resolved.err()).isZero();
        assertThat(run("--dir", dir.toString(), "--json", "unresolved").out()).doesNotContain(TestJournals.K_CRASH);
    }

    @Test
    void versionIsTheJarsOwn() throws Exception {
        Result v = run("--version");
        assertThat(v.code()).isZero();
        assertThat(v.out().strip()).isEqualTo("effectful journal " + System.getProperty("effectful.version", "0.1.0-SNAPSHOT"));
        Result jar = runJar("--version");
        assertThat(jar.code()).isZero();
        assertThat(jar.out().strip()).isEqualTo("effectful " + System.getProperty("effectful.version", "0.1.0-SNAPSHOT"));
    }
}

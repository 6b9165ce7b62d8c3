package dev.effectful.agent.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code mvn -B install} installs works for a project outside this build.
 *
 * <p>The build (parent, annotations, runtime, agent; sources copied, so this build's target/ is
 * left alone) is installed with the README's command into a scratch local repository, then
 * {@code examples/plain-maven} is built against that repository: it takes the API and the agent
 * jar by their coordinates only and runs a test with {@code -javaagent}. Both nested builds read
 * third-party artifacts and plugins from this build's local repository first (a {@code file://}
 * repository; nothing is ever installed into it) and from Maven Central only for what it lacks, as
 * on a fresh machine whose local repository holds only what the outer build needed.
 *
 * <p>The kit the same way: {@code examples/junit-kit} takes {@code effectful-junit} by its
 * coordinates and runs the kit on its own tools in {@code mvn verify}, with no {@code -javaagent},
 * on JDK 17 and (when this machine has it) JDK 25.
 */
class DistributionIT {

    private static final String VERSION = System.getProperty("effectful.version", "0.1.0-SNAPSHOT");
    private static final Path ROOT = Path.of(System.getProperty("effectful.root.dir", "..")).toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    @Test
    void installedArtifactsBuildAndRunASeparateProjectByCoordinatesOnly() throws Exception {
        Path outerRepo = Path.of(System.getProperty("effectful.outer.repo", System.getProperty("user.home") + "/.m2/repository"));
        Path scratch = tmp.resolve("repo");
        // This build's local repository first, Maven Central after it: on a warm machine nothing is
        // fetched, and on a fresh one (an empty ~/.m2 holds only what the outer build needed) the
        // plugins only the nested builds use still resolve. Nothing is installed into the outer one.
        Path settings = Files.writeString(tmp.resolve("settings.xml"), """
                <settings>
                  <profiles>
                    <profile>
                      <id>outer-first</id>
                      <repositories>
                        <repository><id>outer-local</id><url>%1$s</url></repository>
                      </repositories>
                      <pluginRepositories>
                        <pluginRepository><id>outer-local</id><url>%1$s</url></pluginRepository>
                      </pluginRepositories>
                    </profile>
                  </profiles>
                  <activeProfiles><activeProfile>outer-first</activeProfile></activeProfiles>
                </settings>
                """.formatted(outerRepo.toUri()));

        long t0 = System.nanoTime();
        Path build = copyBuild(Files.createDirectories(tmp.resolve("build")));
        mvn(build, settings, scratch, "install", "-Dmaven.test.skip=true", "-pl", "annotations,agent,junit", "-am");
        long t1 = System.nanoTime();

        Path installed = scratch.resolve("dev/effectful/effectful-agent/" + VERSION + "/effectful-agent-" + VERSION + ".jar");
        try (JarFile jar = new JarFile(installed.toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Premain-Class")).as("the installed main jar is the agent").isEqualTo("dev.effectful.agent.bootstrap.EffectfulAgent");
            assertThat(main.getValue("Agent-Class")).isEqualTo("dev.effectful.agent.bootstrap.EffectfulAgent");
            assertThat(main.getValue("Main-Class")).as("and the CLI").isEqualTo("dev.effectful.agent.bootstrap.Launcher");
            assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
            assertThat(jar.getEntry("META-INF/LICENSE")).isNotNull();
            assertThat(jar.getEntry("META-INF/NOTICE")).isNotNull();
        }
        assertThat(scratch.resolve("dev/effectful/effectful-parent/" + VERSION + "/effectful-parent-" + VERSION + ".pom")).exists();
        assertThat(scratch.resolve("dev/effectful/effectful-annotations/" + VERSION + "/effectful-annotations-" + VERSION + ".jar")).exists();
        try (Stream<Path> agentDir = Files.list(installed.getParent())) {
            assertThat(agentDir.map(p -> p.getFileName().toString()))
                    .as("no second jar that looks like the agent but is not").noneMatch(n -> n.endsWith("-all.jar"));
        }

        Path sample = copyTree(ROOT.resolve("examples/plain-maven"), tmp.resolve("plain-maven"));
        String out = mvn(sample, settings, scratch, "verify");
        System.out.printf("DistributionIT: install of the build %d s, sample project %d s%n",
                (t1 - t0) / 1_000_000_000L, (System.nanoTime() - t1) / 1_000_000_000L);
        assertThat(out).contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0");
        assertThat(Files.mismatch(sample.resolve("target/agent/effectful-agent.jar"), installed))
                .as("the sample ran the agent it fetched by coordinates from the scratch repository").isEqualTo(-1L);
        try (Stream<Path> journal = Files.list(sample.resolve("target/journal"))) {
            assertThat(journal.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".cq4"));
        }

        Path kitExample = copyTree(ROOT.resolve("examples/junit-kit"), tmp.resolve("junit-kit"));
        List<String> jdks = new ArrayList<>(List.of(System.getProperty("java.home")));
        String jdk25 = System.getProperty("effectful.jdk25.home", "");
        if (!jdk25.isBlank() && Files.isExecutable(Path.of(jdk25, "bin", "java"))) {
            jdks.add(jdk25);
        }
        for (String jdk : jdks) {
            long t2 = System.nanoTime();
            String kitOut = mvnWith(jdk, kitExample, settings, scratch, "clean", "verify");
            System.out.printf("DistributionIT: examples/junit-kit on %s %d s%n", jdk, (System.nanoTime() - t2) / 1_000_000_000L);
            assertThat(kitOut).as("the kit ran the example's six-failure test on " + jdk)
                    .contains("Tests run: 2, Failures: 0, Errors: 0, Skipped: 0")
                    .doesNotContain("-javaagent");
        }
    }

    /**
     * Every module of the root pom, without anyone's target/ or tests: its pom and its main sources
     * (a module the install does not build still has to be there for the reactor to read).
     */
    private static Path copyBuild(Path to) throws IOException {
        for (String file : List.of("pom.xml", "LICENSE", "NOTICE")) {
            Files.copy(ROOT.resolve(file), to.resolve(file));
        }
        String rootPom = Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8);
        java.util.regex.Matcher module = java.util.regex.Pattern.compile("<module>([^<]+)</module>").matcher(rootPom);
        while (module.find()) {
            String m = module.group(1).trim();
            Files.createDirectories(to.resolve(m));
            Files.copy(ROOT.resolve(m + "/pom.xml"), to.resolve(m + "/pom.xml"));
            if (Files.isDirectory(ROOT.resolve(m + "/src/main"))) {
                copyTree(ROOT.resolve(m + "/src/main"), to.resolve(m + "/src/main"));
            }
        }
        return to;
    }

    private static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all.filter(p -> !from.relativize(p).toString().startsWith("target"))::iterator) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return to;
    }

    /** Runs Maven in {@code dir} against the scratch local repository; fails with its output if it fails. */
    private String mvn(Path dir, Path settings, Path scratch, String... args) throws IOException, InterruptedException {
        return mvnWith(System.getProperty("java.home"), dir, settings, scratch, args);
    }

    private String mvnWith(String javaHome, Path dir, Path settings, Path scratch, String... args)
            throws IOException, InterruptedException {
        String home = System.getProperty("maven.home", "");
        String mvn = home.isBlank() ? "mvn" : Path.of(home, "bin", "mvn").toString();
        List<String> cmd = new ArrayList<>(List.of(mvn, "-B", "-s", settings.toString(), "-Dmaven.repo.local=" + scratch));
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile(tmp, "mvn", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", javaHome);
        pb.environment().remove("MAVEN_ARGS");
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("mvn " + args[0] + " did not finish within 10 minutes: " + tail(log));
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("%s in %s:%n%s", cmd, dir, tail(log)).isZero();
        return out;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    }
}

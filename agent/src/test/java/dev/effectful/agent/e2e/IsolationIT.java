package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.CoreApp;
import dev.effectful.agent.e2e.apps.iso.IsoApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * End to end: applications that bring their own Jackson, Byte Buddy, SLF4J binding and
 * effectful-annotations, on the class path and as named modules, with the agent at start-up or
 * attached later; the native layer behind effectful.sync=intent; no network.
 */
class IsolationIT extends ForkedJvmTest {

    /** Jars the application brings, copied from the local Maven repository by agent/pom.xml. */
    static final Path LIBS = Path.of(System.getProperty("effectful.it.libs", "target/it-libs")).toAbsolutePath();
    static final String TEST_CLASSES = Path.of("target/test-classes").toAbsolutePath().toString();
    static final boolean STRACE = Files.isExecutable(Path.of("/usr/bin/strace"));

    @TempDir
    static Path shared;

    private static Path modularApp;

    @BeforeAll
    static void compileTheNamedModuleApplication() throws IOException {
        // Maven compiles test sources as one unnamed module; the module application is built here.
        modularApp = shared.resolve("modular-app");
        List<String> args = new ArrayList<>(List.of("--release", "17", "-parameters", "-d", modularApp.toString(),
                "--module-path", lib("effectful-annotations.jar")));
        try (Stream<Path> src = Files.walk(Path.of("src/test/module-app"))) {
            src.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, args.toArray(String[]::new))).as("javac of the module application").isZero();
    }

    static String lib(String name) {
        Path p = LIBS.resolve(name);
        assertThat(p).as("copied by maven-dependency-plugin in pre-integration-test").exists();
        return p.toString();
    }

    static String classPath(String... jars) {
        return Stream.concat(Stream.of(TEST_CLASSES), Stream.of(jars).map(IsolationIT::lib))
                .collect(Collectors.joining(File.pathSeparator));
    }

    static final String[] APP_LIBS = {"jackson-databind-2.12.7.jar", "jackson-core-2.12.7.jar", "jackson-annotations-2.12.7.jar",
            "byte-buddy-1.12.23.jar", "logback-classic-1.5.18.jar", "logback-core-1.5.18.jar", "slf4j-api-2.0.17.jar"};

    /** A logback configuration with a file appender whose lines are unmistakably the application's. */
    private Path logback(String rootLevel, Path logFile) throws IOException {
        return Files.writeString(tmp.resolve("logback-" + rootLevel + ".xml"), """
                <configuration>
                  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
                    <file>%s</file>
                    <encoder><pattern>APPLOG|%%level|%%logger|%%msg%%n</pattern></encoder>
                  </appender>
                  <root level="%s"><appender-ref ref="FILE"/></root>
                </configuration>
                """.formatted(logFile, rootLevel));
    }

    @EveryJdk
    void applicationKeepsItsOwnLibrariesAndTheAgentLogsThroughItsLogback(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        Path log = tmp.resolve("app.log");
        ForkedApp app = forked(jdk, journal).main(IsoApp.class, "libs").classPath(classPath(APP_LIBS))
                .sysprop("logback.configurationFile", logback("INFO", log))
                .run(tmp.resolve("out"), Duration.ofSeconds(90));
        Map<String, String> r = app.results();

        assertThat(r).containsEntry("jackson_version", "2.12.7").containsEntry("jackson_jar", "jackson-databind-2.12.7.jar")
                .containsEntry("jackson_works", "{\"a\":1}")
                .containsEntry("bytebuddy_jar", "byte-buddy-1.12.23.jar")
                .containsEntry("bytebuddy_works", "made by the app's byte buddy")
                .containsEntry("slf4j_jar", "slf4j-api-2.0.17.jar")
                .containsEntry("slf4j_binding", "ch.qos.logback.classic.LoggerContext");
        assertThat(r).as("the agent's own classes are invisible to the application")
                .containsEntry("visible:dev.effectful.runtime.engine.CallEngine", "no")
                .containsEntry("visible:dev.effectful.agent.installer.AgentInstaller", "no")
                .containsEntry("visible:net.openhft.chronicle.queue.ChronicleQueue", "no")
                .containsEntry("visible:org.slf4j.nop.NOPServiceProvider", "no")
                .containsEntry("visible:picocli.CommandLine", "no");
        assertToolsSawOneApi(r, journal);

        List<String> lines = Files.readAllLines(log);
        assertThat(lines).contains("APPLOG|WARN|isoapp|app warn line", "APPLOG|INFO|isoapp|app info line");
        assertThat(lines).as("attempt lines through the application's logback, at INFO under dev.effectful")
                .anyMatch(l -> l.startsWith("APPLOG|INFO|dev.effectful|effectful attempt 1 task=iso-1 call=record ")
                        && l.contains(" outcome=ok effect_applied=yes"))
                .anyMatch(l -> l.startsWith("APPLOG|INFO|dev.effectful|effectful attempt 1 task=iso-1 call=reject ")
                        && l.contains(" outcome=permanent"));
        assertThat(lines).as("Chronicle's own chatter never reaches the application's log")
                .noneMatch(l -> l.toLowerCase().contains("chronicle") || l.contains("net.openhft"));
        assertThat(app.stdout().lines()).allMatch(l -> l.startsWith("RESULT ") || l.equals("DONE"));
        assertThat(app.stderr().lines().filter(l -> !JvmWarnings.isJvmFlagWarning(jdk, l))).isEmpty();
    }

    @EveryJdk
    void annotationsJarOnTheClassPathLeavesOneCopyOfTheApi(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        Path log = tmp.resolve("app.log");
        String[] libs = Stream.concat(Stream.of("effectful-annotations.jar"), Stream.of(APP_LIBS)).toArray(String[]::new);
        ForkedApp app = forked(jdk, journal).main(IsoApp.class, "tools").classPath(classPath(libs))
                .sysprop("logback.configurationFile", logback("WARN", log))
                .run(tmp.resolve("out"), Duration.ofSeconds(90));
        Map<String, String> r = app.results();
        assertThat(r).as("the bootstrap copy wins over the application's jar")
                .containsEntry("task_loader", "null").containsEntry("task_module", "null");
        assertToolsSawOneApi(r, journal);
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).as("the application's logback level applies to the agent's lines too")
                .contains("APPLOG|WARN|isoapp|app warn line")
                .noneMatch(l -> l.contains("effectful attempt") || l.contains("app info line"));
    }

    @EveryJdk
    void namedModuleApplicationAndTheAgentShareItsApiModule(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = forked(jdk, journal)
                .module(modularApp + File.pathSeparator + lib("effectful-annotations.jar"), "app/app.ModApp")
                // the agent needs these; a named-module application resolves only what it requires
                .jvmArg("--add-modules").jvmArg("jdk.unsupported,java.net.http")
                .run(tmp.resolve("out"), Duration.ofSeconds(90));
        Map<String, String> r = app.results();
        assertThat(r).containsEntry("app_module", "app").containsEntry("task_module", "dev.effectful");
        assertThat(r.get("task_loader")).contains("AppClassLoader");
        assertToolsSawOneApi(r, journal);
        assertThat(app.stderr().lines().filter(l -> !JvmWarnings.isJvmFlagWarning(jdk, l))).isEmpty();
    }

    @Test
    void namedModuleWithoutTheModulesTheAgentNeedsIsRefusedWithTheFlagToAdd() throws Exception {
        Jdk jdk = Jdk.current();
        ForkedApp app = forked(jdk, tmp.resolve("journal"))
                .module(modularApp + File.pathSeparator + lib("effectful-annotations.jar"), "app/app.ModApp")
                .run(tmp.resolve("out"), Duration.ofSeconds(60));
        Map<String, String> r = app.results();
        String flag = "add --add-modules jdk.unsupported,java.net.http";
        assertThat(r.get("record")).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"").contains(flag);
        assertThat(r.get("book_ok")).as("an Outcome-returning tool gets the refusal as an Outcome")
                .startsWith("OUTCOME {\"outcome\":\"retryable\"").contains(flag);
        assertThat(app.stderr()).contains(flag);
        assertThat(app.stdout()).contains("DONE");
    }

    @EveryJdk
    void attachedToARunningJvmItRewritesToolsAlreadyLoaded(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        Path go = tmp.resolve("go");
        // the application has the API from its own jar: without the agent it must run, and it does
        ForkedApp app = forked(jdk, journal).withoutAgent().main(IsoApp.class, "attach", go.toString())
                .classPath(classPath("effectful-annotations.jar", "slf4j-api-2.0.17.jar", "logback-classic-1.5.18.jar",
                        "logback-core-1.5.18.jar"))
                .sysprop("logback.configurationFile", logback("INFO", tmp.resolve("app.log")));
        if (!jdk.name().equals("jdk17")) {
            app.jvmArg("-XX:+EnableDynamicAgentLoading");
        }
        app.start(tmp.resolve("out"));
        app.awaitLine("READY"::equals, Duration.ofSeconds(60));

        Process attach = new ProcessBuilder(jdk.home() + "/bin/java", "-jar", ForkedApp.AGENT_JAR.toString(),
                "attach", Long.toString(app.pid())).redirectErrorStream(true).start();
        assertThat(attach.waitFor(60, TimeUnit.SECONDS)).as("attach finished").isTrue();
        String said = new String(attach.getInputStream().readAllBytes());
        assertThat(attach.exitValue()).as(said).isZero();
        assertThat(said).contains("effectful: agent loaded into pid " + app.pid());
        Files.writeString(go, "go");
        assertThat(app.awaitExit(Duration.ofSeconds(60))).isZero();

        Map<String, String> r = app.results();
        assertThat(r.get("before")).isEqualTo("recorded:a-1|no-attempt|iso-attach");
        JournalContents j = JournalContents.of(journal);
        JournalRecord intent = j.forCall("record").stream().filter(x -> x.type() == RecordType.INTENT).findFirst().orElseThrow();
        assertThat(r.get("after")).as("the tool class loaded before attach is rewritten, and shares the application's API")
                .isEqualTo("recorded:a-2|" + intent.intentKey() + "|iso-attach");
        assertThat(intent.task()).isEqualTo("iso-attach");
        assertThat(j.of(RecordType.INTENT)).as("nothing from before the attach").hasSize(2);
        assertThat(r.get("after_reject")).startsWith("THROWN {\"outcome\":\"permanent\"");
        assertThat(Files.readAllLines(tmp.resolve("app.log")))
                .anyMatch(l -> l.startsWith("APPLOG|INFO|dev.effectful|effectful agent attached"))
                .anyMatch(l -> l.startsWith("APPLOG|INFO|dev.effectful|effectful attempt 1 task=iso-attach call=record "));
        assertThat(app.stderr().lines().filter(l -> !JvmWarnings.isJvmFlagWarning(jdk, l))).isEmpty();
    }

    @EveryJdk
    void syncIntentMsyncsEachIntentAndNoSocketIsEverUsed(Jdk jdk) throws Exception {
        assumeTrue(STRACE, "strace is not installed (.ci/run installs it)");
        for (String sync : List.of("intent", "none")) {
            Path journal = tmp.resolve("journal-" + sync);
            Path trace = tmp.resolve("trace-" + sync);
            ForkedApp app = forked(jdk, journal).main(IsoApp.class, "tools").classPath(classPath(APP_LIBS))
                    .sysprop("effectful.sync", sync)
                    .sysprop("logback.configurationFile", logback("WARN", tmp.resolve("app.log")))
                    .prefix("/usr/bin/strace", "-f", "-qq", "-e", "trace=msync,socket,connect,bind,listen,sendto,sendmsg",
                            "-o", trace.toString())
                    .run(tmp.resolve("out-" + sync), Duration.ofSeconds(90));
            assertThat(app.results()).containsKey("record");
            List<String> calls = Files.readAllLines(trace);
            long msyncs = calls.stream().filter(l -> l.contains("msync(") && l.contains("MS_SYNC")).count();
            int intents = JournalContents.of(journal).of(RecordType.INTENT).size();
            assertThat(intents).isEqualTo(4);
            if (sync.equals("intent")) {
                assertThat(msyncs).as("one msync(MS_SYNC) per intent: the native layer is live").isGreaterThanOrEqualTo(intents);
            } else {
                assertThat(msyncs).as("sync=none never forces the journal to disk").isZero();
            }
            assertNoNetwork(calls);
        }
    }

    /**
     * No inet socket is connected, bound, listened on or sent to. The JDK's networking library,
     * loaded with the first FileChannel, creates and closes three sockets to learn whether IPv4
     * and IPv6 exist (any JVM that maps a file does); nothing else may create one.
     */
    static void assertNoNetwork(List<String> calls) {
        String inet = "AF_INET";
        assertThat(calls).as("inet use").noneMatch(l -> l.contains(inet) && (l.contains("connect(") || l.contains("bind(")
                || l.contains("sendto(") || l.contains("sendmsg(")));
        assertThat(calls).noneMatch(l -> l.contains("listen("));
        assertThat(calls.stream().filter(l -> l.contains("socket(AF_INET"))).as("only the JDK's IPv4/IPv6 probe").hasSizeLessThanOrEqualTo(3);
    }

    @Test
    void logLevelGovernsBothSinks() throws Exception {
        Jdk jdk = Jdk.current();
        // stderr sink (no SLF4J in the application): attempt lines only when the level is asked for
        ForkedApp info = forked(jdk, tmp.resolve("j1")).main(CoreApp.class, "quiet").env("EFFECTFUL_LOG_LEVEL", "info")
                .run(tmp.resolve("o1"), Duration.ofSeconds(60));
        assertThat(info.stderr().lines()).anyMatch(l -> l.startsWith("effectful INFO: effectful attempt 1 task=t-1 call=note "));
        // SLF4J sink: the agent's level applies before the application's logback sees a line
        Path log = tmp.resolve("app.log");
        forked(jdk, tmp.resolve("j3")).main(IsoApp.class, "tools").classPath(classPath(APP_LIBS))
                .sysprop("logback.configurationFile", logback("DEBUG", log)).agentArgs("log.level=warn")
                .run(tmp.resolve("o3"), Duration.ofSeconds(60));
        assertThat(Files.readAllLines(log)).contains("APPLOG|INFO|isoapp|app info line")
                .noneMatch(l -> l.contains("|dev.effectful|") && (l.startsWith("APPLOG|INFO") || l.startsWith("APPLOG|DEBUG")))
                .noneMatch(l -> l.toLowerCase().contains("chronicle") || l.contains("net.openhft"));
    }

    /** The tools saw the task the application opened and the attempt the runtime bound: one API. */
    private static void assertToolsSawOneApi(Map<String, String> r, Path journal) throws IOException {
        JournalContents j = JournalContents.of(journal);
        JournalRecord intent = j.forCall("record").stream().filter(x -> x.type() == RecordType.INTENT).findFirst().orElseThrow();
        assertThat(intent.task()).isEqualTo("iso-1");
        assertThat(r.get("record")).isEqualTo("recorded:r-1|" + intent.intentKey() + "|iso-1");
        assertThat(r.get("reject")).as("caught as the application's ToolOutcomeException")
                .startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"");
        assertThat(r.get("book_ok")).startsWith("OUTCOME {\"outcome\":\"ok\"").endsWith("value=booked:b-1");
        assertThat(r.get("book_fail")).as("returned as the application's Outcome").startsWith("OUTCOME {\"outcome\":\"permanent\"");
        assertThat(j.of(RecordType.OUTCOME)).extracting(JournalRecord::task).containsOnly("iso-1");
    }
}

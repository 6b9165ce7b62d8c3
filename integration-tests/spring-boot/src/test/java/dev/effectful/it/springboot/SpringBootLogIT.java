package dev.effectful.it.springboot;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot application run from its fat jar (logback in the launcher's class loader, which the
 * system class loader cannot see) with the real agent jar, on JDK 17 and, where present, 25: each
 * guarded call is one INFO line in the application's own pattern ({@code APPLOG %level [%logger] %msg}),
 * a held intent one WARN line there naming where a person decides (once more in a restarted process),
 * and the agent prints nothing on stderr.
 */
class SpringBootLogIT {

    private static final Path APP_JAR = Path.of(System.getProperty("it.spring-boot.jar",
            "target/effectful-it-spring-boot-0.1.0-SNAPSHOT.jar")).toAbsolutePath();

    @TempDir
    Path tmp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private ForkedApp run(Jdk jdk, String scenario) throws Exception {
        ForkedApp app = ForkedApp.jdk(jdk).classPath(APP_JAR.toString())
                .main("org.springframework.boot.loader.launch.JarLauncher", scenario)
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .env("HOME", tmp.resolve("home").toString())
                .run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();
        assertThat(r.get("tool_loader")).as("the tools come from the fat jar's own loader")
                .endsWith("LaunchedClassLoader");
        assertThat(r).as("the system class loader has no SLF4J to find").containsEntry("system_sees_slf4j", "no");
        return app;
    }

    /** The lines of the agent's logger in the application's log. */
    private static List<String> agentLines(ForkedApp app) throws Exception {
        return app.stdout().lines().filter(l -> l.contains("[dev.effectful]")).toList();
    }

    /** stderr with only what the JVM itself may print (CDS, when the bootstrap search was appended). */
    private static List<String> stderr(ForkedApp app) throws Exception {
        return app.stderr().lines().filter(l -> !l.isBlank())
                .filter(l -> !l.contains("Sharing is only supported for boot loader classes")).toList();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aGuardedCallIsOneInfoLineInTheApplicationsOwnPattern(Jdk jdk) throws Exception {
        ForkedApp app = run(jdk, "call");

        assertThat(app.results()).containsEntry("answer", "sent to ann@example.com");
        assertThat(agentLines(app)).singleElement().satisfies(l -> assertThat(l)
                .startsWith("APPLOG INFO [dev.effectful] effectful attempt 1 task=order-1 call=send_receipt kind=send intent_key=")
                .contains(" outcome=ok effect_applied=yes duration_ms="));
        assertThat(stderr(app)).as("nothing of the agent's on stderr").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aHeldIntentIsOneWarnLineNamingWhereAPersonDecides(Jdk jdk) throws Exception {
        ForkedApp app = run(jdk, "held");

        Map<String, String> r = app.results();
        assertThat(r).containsEntry("call1", "ToolOutcomeException").containsEntry("call2", "ToolOutcomeException")
                .containsEntry("call3", "ToolOutcomeException");
        List<String> lines = agentLines(app);
        List<String> warn = lines.stream().filter(l -> l.startsWith("APPLOG WARN ")).toList();
        assertThat(warn).as("once per intent, not per repeat of the model").hasSize(1);
        Matcher key = Pattern.compile(" intent_key=(\\S+)").matcher(lines.get(0));
        assertThat(key.find()).as("the attempt's line names its key: %s", lines).isTrue();
        String journal = tmp.resolve("journal").toAbsolutePath().normalize().toString();
        assertThat(warn.get(0))
                .startsWith("APPLOG WARN [dev.effectful] effectful held call=notify_customer task=t-held intent_key="
                        + key.group(1) + ": ")
                .contains("journal --dir " + journal + " resolve " + key.group(1) + " --applied yes")
                .contains("journal --dir " + journal + " console");
        assertThat(lines.stream().filter(l -> l.startsWith("APPLOG INFO ")))
                .as("the unknown attempt, then the two refused repeats").hasSize(3)
                .first().asString().contains("effectful attempt 1 task=t-held call=notify_customer").contains("outcome=unknown");
        assertThat(stderr(app)).as("nothing of the agent's on stderr").isEmpty();

        ForkedApp restarted = run(jdk, "repeat");
        assertThat(restarted.results()).containsEntry("repeat", "ToolOutcomeException");
        assertThat(agentLines(restarted).stream().filter(l -> l.startsWith("APPLOG WARN ")))
                .as("a new process says it once more, at the first repeat").singleElement().asString()
                .startsWith("APPLOG WARN [dev.effectful] effectful held call=notify_customer task=t-held intent_key="
                        + key.group(1) + ": an earlier attempt's outcome is unknown")
                .contains(" resolve " + key.group(1) + " --applied yes");
        assertThat(stderr(restarted)).isEmpty();
    }
}

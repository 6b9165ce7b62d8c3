package dev.effectful.it.support;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code effectful-spring-boot} in a Spring Boot application run from its fat jar, with the real agent jar
 * and without it: the health indicator {@code effectful} (UP, then DOWN naming why once the journal's
 * directory turns read-only; UNKNOWN, {@code agent: not loaded}, without the agent), the actuator endpoint
 * {@code effectful} listing the held intent and the one waiting for approval, and the meters in
 * {@code /actuator/metrics}. A subclass names the fat jar of its Spring Boot generation; the application
 * ({@code serve}) makes one ok call, one whose outcome is unknown and one that waits for approval, prints
 * {@code RESULT port N} and {@code RESULT ready yes}, and serves on loopback until killed.
 */
public abstract class SpringBootActuatorScenario {

    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration CHANGE = Duration.ofSeconds(30);

    @TempDir
    protected Path tmp;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The application's fat jar ({@code JarLauncher}). */
    protected abstract Path appJar();

    private ForkedApp serve(boolean agent) throws IOException, InterruptedException {
        ForkedApp app = ForkedApp.jdk(Jdk.current()).classPath(appJar().toString())
                .main("org.springframework.boot.loader.launch.JarLauncher", "serve",
                        "--spring.main.web-application-type=servlet", "--server.port=0")
                .sysprop("effectful.journal.dir", journal())
                .env("HOME", tmp.resolve("home").toString());
        if (!agent) {
            app.withoutAgent();
        }
        app.start(tmp.resolve("logs"));
        app.awaitLine(l -> l.equals("RESULT ready yes"), START);
        return app;
    }

    private Path journal() {
        return tmp.resolve("journal");
    }

    @Test
    void healthUpListsHeldIntentsShowsMetersThenDownWhenTheJournalTurnsReadOnly() throws Exception {
        ForkedApp app = serve(true);
        try {
            String base = "http://127.0.0.1:" + app.results().get("port");
            assertThat(app.results()).containsEntry("ok", "sent to cy@example.com")
                    .containsEntry("held", "ToolOutcomeException").containsEntry("refund", "ToolOutcomeException");

            String health = effectfulHealth(base);
            assertThat(health).as("health: %s", health).contains("\"status\":\"UP\"")
                    .contains("\"journal\":\"writable\"").contains("\"unresolved\":1").contains("\"approvals_waiting\":1")
                    .contains("\"store\":\"local journal index\"").containsPattern("\"reserve_bytes\":[1-9]")
                    .containsPattern("\"oldest_waiting_s\":\\d");

            String lists = get(base + "/actuator/effectful").body();
            assertThat(lists).as("endpoint: %s", lists)
                    .containsPattern("\"unresolved\":\\[\\{\"task\":\"t-held\",\"call\":\"notify_customer\",\"kind\":\"send\"")
                    .contains("\"state\":\"unknown\"", "\"needs_person\":true")
                    .containsPattern("\"approvals\":\\[\\{\"task\":\"t-refund\",\"actor\":\"alice\",\"call\":\"refund\",\"kind\":\"money\"")
                    .doesNotContain("bob@example.com").as("no arguments").doesNotContain("ord-7");

            String names = get(base + "/actuator/metrics").body();
            assertThat(names).as("metrics: %s", names).contains("\"effectful.calls\"", "\"gen_ai.execute_tool.duration\"",
                    "\"effectful.unresolved\"", "\"effectful.approvals.waiting\"", "\"effectful.journal.writable\"");
            assertThat(get(base + "/actuator/metrics/effectful.approvals.waiting").body()).contains("\"value\":1.0");

            try (ReadOnly ignored = ReadOnly.make(journal())) {
                AtomicReference<String> seen = new AtomicReference<>();
                await().atMost(CHANGE).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    seen.set(effectfulHealth(base));
                    assertThat(seen.get()).contains("\"status\":\"DOWN\"");
                });
                assertThat(seen.get()).as("the reason: %s", seen.get())
                        .contains("\"journal\":\"directory read-only: " + journal().toAbsolutePath().normalize());
                HttpResponse<String> whole = get(base + "/actuator/health");
                assertThat(whole.statusCode()).as("the application's health is DOWN with it").isEqualTo(503);
            }
            await().atMost(CHANGE).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(effectfulHealth(base)).contains("\"status\":\"UP\""));
        } finally {
            app.kill9();
        }
    }

    @Test
    void withoutTheAgentHealthSaysSoAndNothingFails() throws Exception {
        ForkedApp app = serve(false);
        try {
            String base = "http://127.0.0.1:" + app.results().get("port");
            HttpResponse<String> whole = get(base + "/actuator/health");
            assertThat(whole.statusCode()).as("an unknown component leaves the application UP: %s", whole.body())
                    .isEqualTo(200);
            assertThat(effectfulHealth(base)).contains("\"status\":\"UNKNOWN\"", "\"agent\":\"not loaded\"");
            assertThat(get(base + "/actuator/effectful").body())
                    .isEqualTo("{\"agent\":\"not loaded\",\"unresolved\":[],\"approvals\":[]}");
            assertThat(app.results()).as("the tools ran unguarded").containsEntry("ok", "sent to cy@example.com")
                    .containsEntry("refund", "refunded 25 on ord-7");
            assertThat(app.stderr()).doesNotContain("Exception");
            assertThat(Files.exists(journal())).as("no journal without the agent").isFalse();
        } finally {
            app.kill9();
        }
    }

    /** The {@code effectful} component of {@code /actuator/health}, as JSON text. */
    private String effectfulHealth(String base) throws IOException, InterruptedException {
        String body = get(base + "/actuator/health").body();
        int at = body.indexOf("\"effectful\":{");
        assertThat(at).as("an effectful component in %s", body).isNotNegative();
        int start = at + "\"effectful\":".length();
        int depth = 0;
        for (int i = start; i < body.length(); i++) {
            char c = body.charAt(i);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth == 0) {
                return body.substring(start, i + 1);
            }
        }
        return body.substring(start);
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A directory made read-only for as long as this is open. Mode bits do not stop root, so as root the
     * directory is also made immutable ({@code chattr +i}): nothing can be created in it, as on a file
     * system mounted read-only.
     */
    private record ReadOnly(Path dir, Set<PosixFilePermission> before, boolean immutable) implements AutoCloseable {

        static ReadOnly make(Path dir) throws IOException, InterruptedException {
            Set<PosixFilePermission> before = Files.getPosixFilePermissions(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
            boolean root = "root".equals(System.getProperty("user.name"));
            if (root && !chattr("+i", dir)) {
                Files.setPosixFilePermissions(dir, before);
                // a container's root may lack CAP_LINUX_IMMUTABLE: then nothing here can make the directory read-only
                org.junit.jupiter.api.Assumptions.abort("root cannot make " + dir + " immutable (chattr +i refused) here");
            }
            return new ReadOnly(dir, before, root);
        }

        @Override
        public void close() throws IOException, InterruptedException {
            if (immutable) {
                assertThat(chattr("-i", dir)).as("chattr -i %s", dir).isTrue();
            }
            Files.setPosixFilePermissions(dir, before);
        }

        private static boolean chattr(String flag, Path dir) throws IOException, InterruptedException {
            Process p = new ProcessBuilder("chattr", flag, dir.toString()).inheritIO().start();
            return p.waitFor() == 0;
        }
    }
}

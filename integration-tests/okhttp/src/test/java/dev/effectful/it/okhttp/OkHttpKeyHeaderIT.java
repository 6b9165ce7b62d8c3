package dev.effectful.it.okhttp;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.HeaderLedger;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.KeyHeaderIT;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code keyHeader} on requests sent through OkHttp, the real library in a JVM with the real agent: 5.5.1
 * (the module's dependency) and 4.12.0 (its jar swapped in on the forked class path). The client is woven
 * by an inserted call, without Byte Buddy's pipeline.
 */
class OkHttpKeyHeaderIT {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "OkHttp {0}, {1}")
    @CsvSource({"5.5.1, okhttp", "5.5.1, okhttp-enqueue", "4.12.0, okhttp", "4.12.0, okhttp-enqueue"})
    void theServiceSeesTheIntentKeyOnEveryAttemptOfTheSameIntentOnly(String version, String client) throws Exception {
        Path classes = tmp.resolve("classes.txt");
        try (HeaderLedger service = new HeaderLedger("Idempotency-Key")) {
            ForkedApp app = ForkedApp.jdk(Jdk.current()).main(OkHttpKeyHeaderApp.class, client)
                    .classPath(classPathWith(version)).jvmArg("-Xlog:class+load=info:file=" + classes)
                    .sysprop("effectful.journal.dir", tmp.resolve("journal")).sysprop("ledger", service.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(60));
            Map<String, String> r = app.results();
            assertThat(r.get("okhttp_version")).isEqualTo(version);
            KeyHeaderIT.assertKeysTravel(client, service, r);
            assertThat(app.stderr()).as("the application's own key, kept, is named once")
                    .containsOnlyOnce("set by the application or its HTTP library, kept as is");
        }
        KeyHeaderIT.assertWovenWithoutByteBuddysPipeline(classes, "okhttp3.OkHttpClient ");
    }

    /** The test class path, with OkHttp 4's jar in place of 5's for 4.12.0. */
    private static String classPathWith(String version) {
        String cp = System.getProperty("effectful.test.classpath");
        if (version.startsWith("5.")) {
            return cp;
        }
        Path okhttp4 = Path.of(System.getProperty("effectful.okhttp4.jar"));
        assertThat(Files.isRegularFile(okhttp4)).as(okhttp4.toString()).isTrue();
        return Arrays.stream(cp.split(File.pathSeparator))
                .map(e -> Path.of(e).getFileName().toString().startsWith("okhttp-jvm-") ? okhttp4.toString() : e)
                .collect(Collectors.joining(File.pathSeparator));
    }
}

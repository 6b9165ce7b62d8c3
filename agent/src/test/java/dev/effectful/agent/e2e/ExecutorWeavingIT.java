package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.ExecutorApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDK executors are rewritten by the agent's own small ASM visitor, at first load and by
 * retransformation: a forked JVM with the real agent jar, its boot classes verified
 * ({@code -XX:+BytecodeVerificationLocal}: the JVM does not verify java.base otherwise, so a bad frame
 * would not be caught), carries the task through each kind of executor, and never loads Byte Buddy's
 * rewriting pipeline (its tool class is guarded at first load, so nothing else needs it).
 */
class ExecutorWeavingIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @TempDir
    Path tmp;

    private ForkedApp app(Jdk jdk, String name) {
        return ForkedApp.jdk(jdk).main(ExecutorApp.class)
                .sysprop("effectful.journal.dir", tmp.resolve(name + "-journal"))
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"));
    }

    private static void assertTheTaskFollowedTheWork(ForkedApp app) throws Exception {
        assertThat(app.results()).containsEntry("pool", "t-exec").containsEntry("scheduled", "t-exec")
                .containsEntry("common_pool", "t-exec").containsEntry("async", "t-exec").containsEntry("pool_after", "none");
        assertThat(app.stderr()).doesNotContain("could not rewrite");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theRewrittenExecutorsPassTheVerifierAndCarryTheTask(Jdk jdk) throws Exception {
        ForkedApp app = app(jdk, "verified").jvmArg("-XX:+UnlockDiagnosticVMOptions").jvmArg("-XX:+BytecodeVerificationLocal")
                .run(tmp.resolve("logs"), Duration.ofSeconds(90));
        assertTheTaskFollowedTheWork(app);
    }

    /**
     * Without the verification flag: verifying java.base loads more of it (the HTTP URL handler's
     * connection class, which an instrumentation rewrites with Byte Buddy), which no application would.
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void aTypicalStartLoadsNoneOfByteBuddysPipeline(Jdk jdk) throws Exception {
        Path classLog = tmp.resolve("classes.txt");
        ForkedApp app = app(jdk, "plain").jvmArg("-Xlog:class+load:file=" + classLog)
                .run(tmp.resolve("logs"), Duration.ofSeconds(90));
        assertTheTaskFollowedTheWork(app);
        List<String> loaded = Files.readAllLines(classLog);
        assertThat(loaded).as("the executors were loaded and rewritten")
                .anyMatch(l -> l.contains(" java.util.concurrent.FutureTask "))
                .anyMatch(l -> l.contains(" java.util.concurrent.ForkJoinTask "));
        assertThat(loaded).as("Byte Buddy's rewriting pipeline")
                .noneMatch(l -> l.contains(" net.bytebuddy.asm.Advice "))
                .noneMatch(l -> l.contains(" net.bytebuddy.ByteBuddy "))
                .noneMatch(l -> l.contains(" net.bytebuddy.pool.TypePool "));
    }
}

package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.CoreApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A JVM with the agent, and the CLI, start no process and load no native library but
 * the JDK's own, so they run in distroless images and no-exec sandboxes, and a default start on
 * JDK 25 needs no {@code --enable-native-access}. Watched from outside with strace.
 */
class NoNativeCodeIT {

    private static final Pattern EXECVE = Pattern.compile("execve\\(\"([^\"]+)\"");
    private static final Pattern SHARED_LIBRARY = Pattern.compile("open(?:at)?\\([^\"]*\"([^\"]+\\.so(?:\\.[0-9.]+)?)\"");

    @TempDir
    Path tmp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void guardedCallsAndTheCliStartNoProcessAndLoadNoForeignNativeLibrary(Jdk jdk) throws Exception {
        assumeTrue(IsolationIT.STRACE, "strace is not installed (.ci/run installs it)");
        Path journal = tmp.resolve("journal");
        Path home = tmp.resolve("home");
        Path trace = tmp.resolve("trace-app");
        ForkedApp app = ForkedApp.jdk(jdk).main(CoreApp.class, "quiet")
                .sysprop("effectful.journal.dir", journal)
                .env("HOME", home.toString()).sysprop("user.home", home)
                .prefix(strace(trace))
                .run(tmp.resolve("out"), Duration.ofSeconds(90));

        assertThat(app.results()).as("guarded calls ran").containsEntry("note", "noted:n-1").containsEntry("price", "42");
        assertThat(JournalContents.of(journal).of(RecordType.INTENT)).as("and were journalled").isNotEmpty();
        assertOnlyTheJvmItself(trace, jdk);
        assertThat(app.stdout().lines()).allMatch(l -> l.startsWith("RESULT ") || l.equals("DONE"));
        assertThat(app.stderr().lines().filter(l -> !JvmWarnings.isJvmFlagWarning(jdk, l)))
                .as("a default start: no native-access warning, nothing but what only a JVM flag silences").isEmpty();
        assertThat(home).as("no native library unpacked under the home directory (JNA's ~/.cache/JNA)").doesNotExist();

        for (String[] run : List.of(new String[] {"verify", "sound"}, new String[] {"tasks", "t-1"})) {
            String command = run[0];
            Path cliTrace = tmp.resolve("trace-cli-" + command);
            List<String> cmd = new ArrayList<>(List.of(strace(cliTrace)));
            cmd.addAll(List.of(Path.of(jdk.home(), "bin", "java").toString(), "-Duser.home=" + home,
                    "-jar", ForkedApp.AGENT_JAR.toString(), "journal", "--dir", journal.toString(), command));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("cli-" + command + ".txt").toFile()).start();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("CLI %s finished", command).isTrue();
            String said = Files.readString(tmp.resolve("cli-" + command + ".txt"), StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(said).isZero();
            assertThat(said).as("CLI " + command + " output").contains(run[1]);
            assertOnlyTheJvmItself(cliTrace, jdk);
            assertThat(said.lines()).as("the CLI prints no native-access warning")
                    .noneMatch(l -> l.startsWith("WARNING: A restricted method") || l.contains("java.lang.System::load"));
        }
        assertThat(home).doesNotExist();
    }

    private static String[] strace(Path out) {
        return new String[] {"/usr/bin/strace", "-f", "-qq", "-e", "trace=execve,open,openat", "-o", out.toString()};
    }

    /**
     * The one execve is the JVM strace started (none by the JVM: no jspawnhelper, no ldconfig),
     * and every shared library opened is the JDK's own or one of the system's it links against.
     */
    private static void assertOnlyTheJvmItself(Path trace, Jdk jdk) throws IOException {
        List<String> lines = Files.readAllLines(trace);
        List<String> started = new ArrayList<>();
        List<String> libraries = new ArrayList<>();
        for (String l : lines) {
            if (l.contains("ENOENT")) {
                continue;
            }
            Matcher e = EXECVE.matcher(l);
            if (e.find()) {
                started.add(e.group(1));
            }
            Matcher so = SHARED_LIBRARY.matcher(l);
            if (so.find()) {
                libraries.add(so.group(1));
            }
        }
        assertThat(started).as("processes started (strace -f -e execve)").hasSize(1);
        assertThat(started.get(0)).endsWith("/bin/java");
        String jdkHome = Path.of(jdk.home()).toString();
        assertThat(libraries).as("shared libraries opened").isNotEmpty()
                .allMatch(lib -> lib.startsWith(jdkHome + "/") || lib.startsWith("/lib/") || lib.startsWith("/usr/lib/")
                        || lib.startsWith("/lib64/") || lib.equals("/etc/ld.so.cache"), "the JDK's or the system's")
                .noneMatch(lib -> lib.contains("jffi") || lib.contains("jnidispatch"));
    }
}

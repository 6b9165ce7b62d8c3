package dev.effectful.agent.e2e;

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

/** {@code java -jar effectful-agent.jar journal ... console --port 0} as a person starts it: its sign-in URL. */
public final class ConsoleProcess implements AutoCloseable {

    private static final Pattern URL = Pattern.compile("open this once in your browser: (http://\\S+)");

    private final Process process;
    private final Path out;
    private final Path err;
    private final String url;

    private ConsoleProcess(Process process, Path out, Path err, String url) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.url = url;
    }

    /** Starts the console on {@code journal} with the extra CLI arguments, and waits for its URL. */
    public static ConsoleProcess start(Path logs, Path journal, String... extra) throws IOException, InterruptedException {
        return start(java.util.Map.of(), logs, journal, extra);
    }

    /** With extra environment variables, e.g. the shared store's {@code EFFECTFUL_STORE_*}. */
    public static ConsoleProcess start(java.util.Map<String, String> env, Path logs, Path journal, String... extra)
            throws IOException, InterruptedException {
        Files.createDirectories(logs);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", ForkedApp.AGENT_JAR.toString(), "journal", "--dir", journal.toString(), "console", "--port", "0"));
        cmd.addAll(List.of(extra));
        Path out = Files.createTempFile(logs, "console-out", ".txt");
        Path err = Files.createTempFile(logs, "console-err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < end) {
            Matcher m = URL.matcher(Files.readString(out, StandardCharsets.UTF_8));
            if (m.find()) {
                return new ConsoleProcess(p, out, err, m.group(1));
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        p.destroyForcibly();
        throw new AssertionError("the console printed no URL within 60 s:\n" + Files.readString(out) + Files.readString(err));
    }

    public String url() {
        return url;
    }

    /** The address without the sign-in path: where pages live. */
    public String base() {
        return url.substring(0, url.indexOf("/login"));
    }

    public String stderr() throws IOException {
        return Files.readString(err, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}

package dev.effectful.agent.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code java -jar effectful-agent.jar journal ...} as an operator runs it: a real process, bounded. */
public record CliRun(int exitCode, String stdout, String stderr) {

    public static CliRun journal(Path dir, String... args) throws IOException, InterruptedException {
        return journal(java.util.Map.of(), dir, args);
    }

    /** With extra environment variables, e.g. the shared store's {@code EFFECTFUL_STORE_*}. */
    public static CliRun journal(java.util.Map<String, String> env, Path dir, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", ForkedApp.AGENT_JAR.toString(), "journal", "--dir", dir.toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("cli-out", ".txt");
        Path err = Files.createTempFile("cli-err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().put("NO_COLOR", "1");
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("CLI did not finish within 120 s: " + cmd);
            }
            return new CliRun(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
}

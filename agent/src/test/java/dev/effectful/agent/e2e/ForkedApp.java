package dev.effectful.agent.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real JVM started with the real agent jar as its only extra flag, running one of the test
 * applications. Its output goes to files so a test can wait on it and a kill -9 loses nothing.
 */
public final class ForkedApp {

    public static final Path AGENT_JAR = Path.of(System.getProperty("effectful.agent.jar", "target/effectful-agent.jar"))
            .toAbsolutePath();

    private final String javaHome;
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> appArgs = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private String mainClass;
    private String modulePath;
    private String classPath = System.getProperty("effectful.test.classpath", Path.of("target/test-classes").toAbsolutePath().toString());
    private boolean withAgent = true;
    private String agentArgs;
    private List<String> prefix = List.of();
    private Path workDir;

    private Process process;
    private Path out;
    private Path err;

    private ForkedApp(String javaHome) {
        this.javaHome = javaHome;
    }

    public static ForkedApp jdk(Jdk jdk) {
        return new ForkedApp(jdk.home());
    }

    public ForkedApp main(Class<?> main, String... args) {
        return main(main.getName(), args);
    }

    /** By name: for an application this JVM cannot load (compiled for a newer Java by the test itself). */
    public ForkedApp main(String main, String... args) {
        this.mainClass = main;
        this.appArgs.clear(); // a later main() replaces the program, arguments included
        this.appArgs.addAll(List.of(args));
        return this;
    }

    /** Runs {@code module/mainClass} from {@code modulePath} instead of a class on the class path. */
    public ForkedApp module(String modulePath, String moduleAndMainClass, String... args) {
        this.modulePath = modulePath;
        this.mainClass = moduleAndMainClass;
        this.appArgs.addAll(List.of(args));
        return this;
    }

    public ForkedApp sysprop(String key, Object value) {
        jvmArgs.add("-D" + key + "=" + value);
        return this;
    }

    public ForkedApp jvmArg(String arg) {
        jvmArgs.add(arg);
        return this;
    }

    public ForkedApp env(String key, String value) {
        env.put(key, value);
        return this;
    }

    public ForkedApp classPath(String cp) {
        this.classPath = cp;
        return this;
    }

    public ForkedApp withoutAgent() {
        this.withAgent = false;
        return this;
    }

    public ForkedApp agentArgs(String args) {
        this.agentArgs = args;
        return this;
    }

    /** The JVM's working directory (where relative paths, and the default journal, land). */
    public ForkedApp workDir(Path dir) {
        this.workDir = dir;
        return this;
    }

    /** Runs the JVM under another command, e.g. strace. */
    public ForkedApp prefix(String... command) {
        this.prefix = List.of(command);
        return this;
    }

    public ForkedApp start(Path logDir) throws IOException {
        Files.createDirectories(logDir);
        out = Files.createTempFile(logDir, "out", ".txt");
        err = Files.createTempFile(logDir, "err", ".txt");
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(javaHome + File.separator + "bin" + File.separator + "java");
        if (withAgent) {
            cmd.add("-javaagent:" + AGENT_JAR + (agentArgs == null ? "" : "=" + agentArgs));
        }
        cmd.addAll(jvmArgs);
        if (modulePath != null) {
            cmd.add("--module-path");
            cmd.add(modulePath);
            cmd.add("-m");
        } else {
            cmd.add("-cp");
            cmd.add(classPath);
        }
        cmd.add(mainClass);
        cmd.addAll(appArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        if (workDir != null) {
            pb.directory(workDir.toFile());
        }
        process = pb.start();
        return this;
    }

    /** Waits for the process to end on its own; fails the test if it takes longer than {@code limit}. */
    public int awaitExit(Duration limit) throws InterruptedException, IOException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("forked JVM did not finish within " + limit + "\nstdout:\n" + stdout() + "\nstderr:\n" + stderr());
        }
        return process.exitValue();
    }

    /** Waits until stdout has a line matching {@code line}, within {@code limit}. */
    public String awaitLine(Predicate<String> line, Duration limit) throws IOException, InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                if (line.test(l)) {
                    return l;
                }
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no such line within " + limit + "\nstdout:\n" + stdout() + "\nstderr:\n" + stderr());
    }

    /** A real {@code kill -9}, then waits for the process to be gone. */
    public void kill9() throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", "-9", Long.toString(process.pid())).inheritIO().start();
        if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
            throw new AssertionError("kill -9 " + process.pid() + " failed");
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("process " + process.pid() + " survived kill -9");
        }
    }

    public long pid() {
        return process.pid();
    }

    public String stdout() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    public String stderr() throws IOException {
        return Files.readString(err, StandardCharsets.UTF_8);
    }

    /** Lines the application printed as {@code RESULT name value}, by name (last one wins). */
    public Map<String, String> results() throws IOException {
        Map<String, String> r = new LinkedHashMap<>();
        for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            if (l.startsWith("RESULT ")) {
                String rest = l.substring(7);
                int sp = rest.indexOf(' ');
                r.put(sp < 0 ? rest : rest.substring(0, sp), sp < 0 ? "" : rest.substring(sp + 1));
            }
        }
        return r;
    }

    /** Runs to completion and returns itself; asserts exit code 0. */
    public ForkedApp run(Path logDir, Duration limit) throws IOException, InterruptedException {
        start(logDir);
        int code = awaitExit(limit);
        if (code != 0) {
            throw new AssertionError("forked JVM exited " + code + "\nstdout:\n" + stdout() + "\nstderr:\n" + stderr());
        }
        return this;
    }
}

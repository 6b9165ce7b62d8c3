package dev.effectful.agent.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

/**
 * How a test steps a forked app (ApprovalApp, LiveResolveApp, DeskApp): command N is the file {@code N} in a
 * control directory, written aside and moved in atomically; the app waits for that file
 * ({@link #await}), runs the command and prints {@code RESULT sN <answer>}. Both sides are here.
 */
public final class ControlFiles {

    private final Path dir;
    private boolean readableByAll;
    private int step;

    private ControlFiles(Path dir) {
        this.dir = dir;
    }

    /** A control directory at {@code dir}, created if need be; the first command is step 1. */
    public static ControlFiles create(Path dir) throws IOException {
        return new ControlFiles(Files.createDirectories(dir));
    }

    /** The directory, for the app's {@code ctl} system property. */
    public Path dir() {
        return dir;
    }

    /** The last step sent (0 before the first): an app started now reads from {@code step() + 1}. */
    public int step() {
        return step;
    }

    /** Every command file readable by all, for an app run as another user. */
    public ControlFiles readableByAll() {
        readableByAll = true;
        return this;
    }

    /** Drops the next command; returns the prefix of the line its answer comes on. */
    public String send(String command) throws IOException {
        step++;
        Path part = dir.resolve(step + ".tmp");
        Files.writeString(part, command, StandardCharsets.UTF_8);
        if (readableByAll) {
            Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rw-r--r--"));
        }
        Files.move(part, dir.resolve(Integer.toString(step)), StandardCopyOption.ATOMIC_MOVE);
        return "RESULT s" + step + " ";
    }

    /** What {@code app} answered on the line starting with {@code prefix} (within 90 s). */
    public static String answer(ForkedApp app, String prefix) throws IOException, InterruptedException {
        return app.awaitLine(l -> l.startsWith(prefix), Duration.ofSeconds(90)).substring(prefix.length());
    }

    /** Sends {@code command} to {@code app} and returns what the call gave back. */
    public String run(ForkedApp app, String command) throws IOException, InterruptedException {
        return answer(app, send(command));
    }

    /** The app's side: command {@code step}'s text, once its file is in {@code dir} (within 5 minutes). */
    public static String await(Path dir, int step) throws IOException, InterruptedException {
        Path file = dir.resolve(Integer.toString(step));
        awaitFile(file, Duration.ofMinutes(5), "no step " + step + " within 5 minutes");
        return Files.readString(file, StandardCharsets.UTF_8).strip();
    }

    /** The app's side of a go file (an attach test's signal that the agent is in): once {@code go} exists, within 90 s. */
    public static void awaitGo(Path go) throws InterruptedException {
        awaitFile(go, Duration.ofSeconds(90), "no go file");
    }

    private static void awaitFile(Path file, Duration limit, String missing) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException(missing);
            }
            Thread.sleep(10);
        }
    }
}

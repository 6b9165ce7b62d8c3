package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * An application whose start keeps a core busy after its tool class has loaded (as Spring's does): the
 * agent must not open a fresh journal meanwhile, then must open it once the start has quieted, with no
 * call. Prints {@code RESULT opened_while_busy}, {@code RESULT opened_when_quiet} and, last, a call's answer.
 */
public final class BusyStartApp {

    /** Longer than many of the agent's 100 ms windows, far shorter than its 30 s bound. */
    private static final long BUSY_MILLIS = 1_500;

    private BusyStartApp() {
    }

    public static void main(String[] args) throws Exception {
        Path journal = Path.of(System.getProperty("effectful.journal.dir"));
        FirstCallTools tools = new FirstCallTools(); // the tool class loads: the application has tools
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BUSY_MILLIS);
        long spin = 0;
        while (System.nanoTime() < until) {
            spin += Long.numberOfTrailingZeros(System.nanoTime() ^ spin);
        }
        System.out.println("RESULT opened_while_busy " + opened(journal));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!opened(journal) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        System.out.println("RESULT opened_when_quiet " + opened(journal));
        try (Task t = Task.open("busy-start", Duration.ofSeconds(10))) {
            CoreApp.print("call", () -> tools.firstSend("busy@example.com"));
        }
        System.out.println("RESULT spun " + (spin >= 0));
    }

    /** The journal's queue metadata exists once the engine has opened a fresh journal. */
    private static boolean opened(Path journal) {
        return Files.exists(journal.resolve("metadata.cq4t"));
    }
}

package dev.effectful.agent.reliability;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The journal-fault tests' application (agent attached): calls an effectful tool and a READ tool
 * in a loop and prints each answer, until a file named {@code stop} appears in {@code -Dcontrol}.
 * {@code -Dpayload=N} pads each call's arguments, so a disk fills in a few hundred calls.
 *
 * <pre>CALL n effectful ok|retryable|... message
 * CALL n read ok|...
 * BODIES n   (how many effectful bodies really ran)</pre>
 */
public final class FaultApp {

    static final AtomicInteger BODIES = new AtomicInteger();

    /** Tools whose effect is in-process: the faults here are the journal's, not the service's. */
    public static class Tools {
        @EffectfulTool(kind = EffectKind.CREATE, name = "record_entry", keyable = true)
        public String recordEntry(@IntentKey String ref, String payload) {
            BODIES.incrementAndGet();
            return "recorded " + ref;
        }

        @EffectfulTool(kind = EffectKind.READ, name = "look_up")
        public String lookUp(@IntentKey String ref) {
            return "seen " + ref;
        }
    }

    private FaultApp() {
    }

    public static void main(String[] args) throws Exception {
        Path control = Path.of(System.getProperty("control"));
        String payload = "x".repeat(Integer.getInteger("payload", 16));
        long pause = Long.getLong("pauseMillis", 20);
        int stopAfter = Integer.getInteger("stopAfter", Integer.MAX_VALUE);
        Tools tools = new Tools();
        System.out.println("READY");
        try (Task t = Task.open(System.getProperty("task", "fault-task"), Duration.ofHours(1))) {
            for (int i = 1; i <= stopAfter && !Files.exists(control.resolve("stop")); i++) {
                int n = i;
                System.out.println("CALL " + n + " effectful " + call(() -> tools.recordEntry("ref-" + n, payload)));
                System.out.println("CALL " + n + " read " + call(() -> tools.lookUp("ref-" + n)));
                System.out.println("BODIES " + BODIES.get());
                Thread.sleep(pause);
            }
        }
        System.out.println("STOPPED");
    }

    private interface Body {
        String run();
    }

    private static String call(Body b) {
        try {
            return "ok " + b.run();
        } catch (ToolOutcomeException e) {
            return e.outcome().status().name().toLowerCase() + " " + e.getMessage();
        } catch (RuntimeException | Error e) {
            return "error " + e;
        }
    }
}

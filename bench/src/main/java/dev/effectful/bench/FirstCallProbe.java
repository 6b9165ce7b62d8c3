package dev.effectful.bench;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * Run in its own JVM with the agent, as a new user's application starts: the first thing {@code main}
 * does is open a task and call a tool (its class loads right there). Prints how long after {@code main}
 * began that first guarded call was served, and when main began after the JVM's start.
 */
public final class FirstCallProbe {

    private FirstCallProbe() {
    }

    public static void main(String[] args) {
        long start = System.nanoTime();
        long mainAtWallMs = System.currentTimeMillis();
        String answer;
        try (Task t = Task.open("first-call-" + ProcessHandle.current().pid(), Duration.ofSeconds(10))) {
            answer = new Tools().notify("first@example.com");
        }
        long servedUs = (System.nanoTime() - start) / 1000;
        // asked only now: the management beans load ~30 classes, which are the probe's cost, not the agent's
        long mainAtMs = mainAtWallMs - ManagementFactory.getRuntimeMXBean().getStartTime();
        System.out.println("FIRST main_to_served_us=" + servedUs + " main_at_ms=" + mainAtMs + " answer=" + answer);
    }

    /** Its own class, so that it is loaded (and rewritten) by the first call, as in an application. */
    public static class Tools {

        @EffectfulTool(kind = EffectKind.SEND, name = "notify")
        public String notify(@IntentKey String to) {
            return dev.effectful.Attempt.current().isPresent() ? "guarded" : "unguarded";
        }
    }
}

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

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("late")) {
            late(Long.parseLong(args[1]));
            return;
        }
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

    /**
     * As an application whose first tool call comes after its own start-up (a Spring Boot context, an agent that
     * first asks its model): the tools are built as {@code main} begins, the first call comes {@code delayMs}
     * later, then nine more, each a new task (so each a new intent). Prints the first and the tenth call's cost.
     */
    private static void late(long delayMs) throws InterruptedException {
        Tools tools = new Tools(); // built at start, as an application registers its tools
        Thread.sleep(delayMs); // the application's own start-up
        long[] us = new long[10];
        String answer = null;
        for (int i = 0; i < us.length; i++) {
            long t0 = System.nanoTime();
            try (Task t = Task.open("late-" + ProcessHandle.current().pid() + "-" + i, Duration.ofSeconds(10))) {
                answer = tools.notify("late" + i + "@example.com");
            }
            us[i] = (System.nanoTime() - t0) / 1000;
        }
        System.out.println("LATE first_us=" + us[0] + " tenth_us=" + us[9] + " answer=" + answer);
    }

    /** Its own class, so that it is loaded (and rewritten) by the first call, as in an application. */
    public static class Tools {

        @EffectfulTool(kind = EffectKind.SEND, name = "notify")
        public String notify(@IntentKey String to) {
            return dev.effectful.Attempt.current().isPresent() ? "guarded" : "unguarded";
        }
    }
}

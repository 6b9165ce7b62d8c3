package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A typical small application: its own tool class, a thread pool, a scheduler, the common pool and a
 * CompletableFuture, each given work inside a task. Prints {@code RESULT <via> <task id or none>}.
 */
public final class ExecutorApp {

    /** Declares its own tool and inherits none: guarded at first load, without Byte Buddy's pipeline. */
    public static final class Tools {
        @EffectfulTool(kind = EffectKind.READ, name = "which_task")
        public String whichTask(@IntentKey String via) {
            return Task.current().map(Task::id).orElse("none");
        }
    }

    private ExecutorApp() {
    }

    public static void main(String[] args) throws Exception {
        Tools tools = new Tools();
        ExecutorService pool = Executors.newFixedThreadPool(1);
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
        try (Task task = Task.open("t-exec", Duration.ofSeconds(60))) {
            print("pool", pool.submit(() -> tools.whichTask("pool")).get(20, TimeUnit.SECONDS));
            print("scheduled", scheduler.schedule(() -> tools.whichTask("scheduled"), 1, TimeUnit.MILLISECONDS)
                    .get(20, TimeUnit.SECONDS));
            print("common_pool", ForkJoinPool.commonPool().submit(() -> tools.whichTask("common_pool")).get(20, TimeUnit.SECONDS));
            print("async", CompletableFuture.supplyAsync(() -> tools.whichTask("async")).get(20, TimeUnit.SECONDS));
        }
        print("pool_after", pool.submit(() -> Task.current().map(Task::id).orElse("none")).get(20, TimeUnit.SECONDS));
        pool.shutdown();
        scheduler.shutdown();
        System.out.println("DONE");
    }

    private static void print(String via, String seen) {
        System.out.println("RESULT " + via + " " + seen);
    }
}

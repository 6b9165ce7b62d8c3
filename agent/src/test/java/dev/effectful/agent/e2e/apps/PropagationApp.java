package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Calls a READ tool through every kind of executor inside a task, then again from the same pooled
 * threads after the task ended, and prints what the tool saw:
 * {@code RESULT <via> <task id> <|deadline difference| in ms> <thread>} or {@code RESULT <via> none <thread>}.
 */
public final class PropagationApp {

    private static final DeadlineTools TOOLS = new DeadlineTools();

    private PropagationApp() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "propagate" -> propagate();
            case "nested" -> nested();
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("DONE");
    }

    private static void propagate() throws Exception {
        ExecutorService tpe = Executors.newFixedThreadPool(1);
        ScheduledExecutorService stpe = Executors.newScheduledThreadPool(1);
        ForkJoinPool fjp = new ForkJoinPool(1);
        long deadline;
        try (Task task = Task.open("t-prop", "alice", Duration.ofSeconds(40))) {
            deadline = System.nanoTime() + task.remaining().toNanos();
            // ThreadPoolExecutor
            CountDownLatch ran = new CountDownLatch(1);
            tpe.execute(() -> {
                see("tpe_execute", deadline);
                ran.countDown();
            });
            ran.await(10, TimeUnit.SECONDS);
            tpe.submit(() -> see("tpe_submit", deadline)).get(10, TimeUnit.SECONDS);
            tpe.invokeAll(List.of(callable("tpe_invoke_all", deadline)));
            // ScheduledThreadPoolExecutor
            stpe.schedule(() -> see("stpe_schedule_runnable", deadline), 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
            stpe.schedule(callable("stpe_schedule_callable", deadline), 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
            periodic(stpe, true, deadline);
            periodic(stpe, false, deadline);
            // ForkJoinPool and ForkJoinTask.fork
            CountDownLatch fjRan = new CountDownLatch(1);
            fjp.execute(() -> {
                see("fjp_execute_runnable", deadline);
                fjRan.countDown();
            });
            fjRan.await(10, TimeUnit.SECONDS);
            fjp.submit(callable("fjp_submit_callable", deadline)).get(10, TimeUnit.SECONDS);
            fjp.submit(() -> see("fjp_submit_runnable", deadline)).get(10, TimeUnit.SECONDS);
            fjp.invoke(new Forking("fjp_invoke_task", deadline, 0));
            fjp.submit(new Forking("fjp_submit_task", deadline, 0)).get(10, TimeUnit.SECONDS);
            fjp.invoke(new Forking("fork", deadline, 1));
            ForkJoinPool.commonPool().submit(new Forking("common_fork", deadline, 1)).get(10, TimeUnit.SECONDS);
            // CompletableFuture async stages (common pool, or a thread per stage on small machines)
            CompletableFuture.supplyAsync(() -> see("cf_supply_async", deadline))
                    .thenApplyAsync(x -> see("cf_then_apply_async", deadline))
                    .get(10, TimeUnit.SECONDS);
            CompletableFuture.runAsync(() -> see("cf_run_async_fjp", deadline), fjp).get(10, TimeUnit.SECONDS);
            CompletableFuture.runAsync(() -> see("cf_run_async_tpe", deadline), tpe).get(10, TimeUnit.SECONDS);
            // Task.wrap for a thread the agent does not know
            Thread plain = new Thread(Task.wrap((Runnable) () -> see("wrap_plain_thread", deadline)));
            plain.start();
            plain.join();
            virtualThreads(deadline);
        }
        // the task is over: the same pooled threads must see none
        tpe.submit(() -> see("after_tpe", 0)).get(10, TimeUnit.SECONDS);
        CountDownLatch after = new CountDownLatch(1);
        tpe.execute(() -> {
            see("after_tpe_execute", 0);
            after.countDown();
        });
        after.await(10, TimeUnit.SECONDS);
        stpe.schedule(() -> see("after_stpe", 0), 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        fjp.submit(() -> see("after_fjp", 0)).get(10, TimeUnit.SECONDS);
        fjp.invoke(new Forking("after_fork", 0, 1));
        CompletableFuture.supplyAsync(() -> see("after_cf", 0)).get(10, TimeUnit.SECONDS);
        System.out.println("RESULT main_after " + Task.current().map(Task::id).orElse("none"));
        tpe.shutdown();
        stpe.shutdown();
        fjp.shutdown();
    }

    private static void periodic(ScheduledExecutorService stpe, boolean fixedRate, long deadline) throws Exception {
        String via = fixedRate ? "stpe_fixed_rate" : "stpe_fixed_delay";
        CountDownLatch twice = new CountDownLatch(2);
        Runnable r = () -> {
            see(via + "_" + (2 - twice.getCount()), deadline);
            twice.countDown();
        };
        ScheduledFuture<?> f = fixedRate ? stpe.scheduleAtFixedRate(r, 1, 5, TimeUnit.MILLISECONDS)
                : stpe.scheduleWithFixedDelay(r, 1, 5, TimeUnit.MILLISECONDS);
        twice.await(10, TimeUnit.SECONDS);
        f.cancel(false);
    }

    /** JDK 21+ only; the app is compiled for 17, so reached by reflection. */
    private static void virtualThreads(long deadline) throws Exception {
        if (Runtime.version().feature() < 21) {
            return;
        }
        Thread vt = (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class)
                .invoke(null, (Runnable) () -> see("virtual_thread", deadline));
        vt.join();
        ExecutorService perTask = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        perTask.submit(() -> see("virtual_executor", deadline)).get(10, TimeUnit.SECONDS);
        perTask.shutdown();
    }

    private static void nested() throws Exception {
        TOOLS.whereAmI("warm"); // the engine starts outside the measured scopes
        try (Task outer = Task.open("t-outer", Duration.ofSeconds(20))) {
            try (Task inner = Task.open("t-inner", Duration.ofSeconds(60))) {
                System.out.println("RESULT nested_longer " + inner.id() + " " + inner.remaining().toMillis());
                System.out.println("RESULT nested_tool " + TOOLS.whereAmI("nested").split(" ")[0]);
            }
            System.out.println("RESULT after_inner " + Task.current().map(Task::id).orElse("none"));
            try (Task inner = Task.open("t-short", Duration.ofSeconds(2))) {
                System.out.println("RESULT nested_shorter " + inner.id() + " " + inner.remaining().toMillis());
            }
            // a scope opened on a pool thread inside a carried task keeps the carried deadline
            ExecutorService pool = Executors.newSingleThreadExecutor();
            String child = pool.submit(() -> {
                try (Task c = Task.open("t-child", Duration.ofSeconds(60))) {
                    return c.id() + " " + c.remaining().toMillis();
                }
            }).get(10, TimeUnit.SECONDS);
            String afterChild = pool.submit(() -> Task.current().map(Task::id).orElse("none")).get(10, TimeUnit.SECONDS);
            pool.shutdown();
            System.out.println("RESULT nested_on_pool " + child);
            System.out.println("RESULT pool_after_child " + afterChild);
        }
        System.out.println("RESULT after_outer " + Task.current().map(Task::id).orElse("none"));
    }

    private static Callable<String> callable(String via, long deadline) {
        return () -> see(via, deadline);
    }

    /** Calls the tool and prints what it saw; deadline 0 = expected outside any task. */
    static String see(String via, long deadline) {
        String seen = TOOLS.whereAmI(via);
        String thread = Thread.currentThread().getName().replace(' ', '_');
        String line;
        if ("none".equals(seen)) {
            line = "none " + thread;
        } else {
            String[] p = seen.split(" ");
            long diffMs = Math.abs(Long.parseLong(p[1]) - deadline) / 1_000_000;
            line = p[0] + " " + diffMs + " " + thread;
        }
        System.out.println("RESULT " + via + " " + line);
        return seen;
    }

    /** A fork/join task that forks {@code depth} levels of children, each calling the tool. */
    static final class Forking extends RecursiveTask<String> {
        private final String via;
        private final long deadline;
        private final int depth;

        Forking(String via, long deadline, int depth) {
            this.via = via;
            this.deadline = deadline;
            this.depth = depth;
        }

        @Override
        protected String compute() {
            if (depth == 0) {
                return see(via, deadline);
            }
            Forking child = new Forking(via + "_child", deadline, depth - 1);
            child.fork();
            see(via, deadline);
            return child.join();
        }
    }
}

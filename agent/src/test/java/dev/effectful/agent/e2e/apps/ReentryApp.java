package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Re-entry scenarios, one per run; each prints {@code RESULT name value} (see {@link CoreApp#print}).
 * The task id comes from {@code -Dtask}, so a second process can resume the same task.
 */
public final class ReentryApp {

    private ReentryApp() {
    }

    public static void main(String[] args) throws Exception {
        ReentryTools tools = new ReentryTools();
        String task = System.getProperty("task", "t-1");
        Duration budget = Duration.ofMillis(Long.getLong("budget.ms", 30_000));
        try (Task t = Task.open(task, budget)) {
            switch (args[0]) {
                case "charge" -> {
                    CoreApp.print("charge", () -> tools.charge("o-1", "first try"));
                    CoreApp.print("charge_again", () -> tools.charge("o-1", "the model rephrased it"));
                }
                case "notify" -> CoreApp.print("notify", () -> tools.notifyCustomer("bob@example.com", "your order shipped"));
                case "duplicate" -> {
                    CoreApp.print("first", () -> tools.placeOrder("o-7", "two lamps, please"));
                    CoreApp.print("second", () -> tools.placeOrder("o-7", "Order: 2x lamp (retry)"));
                }
                case "unstored" -> CoreApp.print("session", () -> tools.openSession("s-1"));
                case "error-body" -> {
                    CoreApp.print("checked", () -> tools.pay("o-9").statusCode());
                    CoreApp.print("unchecked", () -> tools.payUnchecked("o-9").statusCode());
                }
                case "slow" -> slow(tools);
                case "rate-limited" -> {
                    CoreApp.print("first", () -> tools.submit("r-1", 429).statusCode());
                    if (!Boolean.getBoolean("once")) {
                        Thread.sleep(1_000); // the scenario: the model tries again one second later
                        CoreApp.print("one_second_later", () -> tools.submit("r-1", 429).statusCode());
                    }
                }
                case "stampede" -> stampede(tools, Integer.getInteger("threads", 64));
                case "ping" -> {
                    for (String id : System.getProperty("ids", "p-1").split(",")) {
                        CoreApp.print("ping_" + id, () -> tools.ping(id));
                    }
                }
                case "unknown" -> CoreApp.print("submit_500", () -> tools.submit("u-1", 500).statusCode());
                case "retention-first" -> {
                    CoreApp.print("old", () -> tools.ping("old"));
                    long oldDone = System.currentTimeMillis();
                    awaitNextSecond(); // one cycle file per second: the unresolved intent goes into the next one
                    CoreApp.print("unresolved", () -> tools.submit("u-1", 500).statusCode());
                    // the young intent comes once the old one (and its whole cycle) is past the window
                    long youngAt = oldDone + Long.getLong("young.after.ms");
                    while (System.currentTimeMillis() < youngAt) {
                        Thread.sleep(Math.max(1, youngAt - System.currentTimeMillis()));
                    }
                    CoreApp.print("young", () -> tools.ping("young"));
                }
                case "retention-second" -> {
                    CoreApp.print("old_again", () -> tools.ping("old"));
                    CoreApp.print("young", () -> tools.ping("young"));
                    CoreApp.print("unresolved_again", () -> tools.submit("u-1", 500).statusCode());
                }
                case "hold" -> {
                    CoreApp.print("ping_a", () -> tools.ping("a"));
                    System.out.println("HOLDING");
                    Thread.sleep(120_000); // holds the journal until the test kills it
                }
                default -> throw new IllegalArgumentException("no scenario " + args[0]);
            }
        }
        System.out.println("DONE");
    }

    /** The second call arrives while the first is inside the service, as the ledger itself shows. */
    private static void slow(ReentryTools tools) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> first = pool.submit(Task.wrap(() -> CoreApp.print("first", () -> tools.slowOrder("o-3", 3_000))));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Http.get("/effect/slow", "o-3").statusCode() != 200) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException("the first call never reached the service");
                }
                Thread.sleep(10);
            }
            Future<?> second = pool.submit(Task.wrap(() -> CoreApp.print("second", () -> tools.slowOrder("o-3", 3_000))));
            first.get(30, TimeUnit.SECONDS);
            second.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every thread is released at once into a call of the same new intent. */
    private static void stampede(ReentryTools tools, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<String>> answers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Callable<String> call = Task.wrap(() -> {
                ready.countDown();
                go.await();
                return String.valueOf(tools.placeOrder("o-64", "stampede"));
            });
            answers.add(pool.submit(call));
        }
        ready.await(20, TimeUnit.SECONDS);
        go.countDown();
        for (int i = 0; i < threads; i++) {
            Future<String> f = answers.get(i);
            CoreApp.print("t" + i, () -> f.get(30, TimeUnit.SECONDS));
        }
        pool.shutdown();
    }

    private static void awaitNextSecond() throws InterruptedException {
        long second = System.currentTimeMillis() / 1000;
        while (System.currentTimeMillis() / 1000 == second) {
            Thread.sleep(5);
        }
    }
}

package dev.effectful.agent.e2e.apps;

import com.sun.net.httpserver.HttpServer;
import dev.effectful.Task;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Hands a task from thread to thread and prints what the tool saw, as {@code RESULT <name> <answer>}.
 * <ul>
 *   <li>{@code closed}: a task opened on a pooled worker and closed on another thread; then the same
 *       worker serves a call with no task of its own (a plain pool, a ForkJoinPool, an HTTP server's
 *       request pool). Also a task carried onto a worker and closed while the work still runs.</li>
 *   <li>{@code timer}: a {@code java.util.Timer} task, an async SDK's retry (a future completed by a
 *       TimerTask, the retry chained on it) and {@code CompletableFuture.delayedExecutor} stages, each
 *       calling the tool twice, rephrased, inside one task.</li>
 * </ul>
 */
public final class HandOffApp {

    private static final HandOffTools TOOLS = new HandOffTools();
    private static final long WAIT_S = 20;

    private HandOffApp() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "closed" -> closed();
            case "timer" -> timer();
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("DONE");
    }

    // ---- a closed task is closed everywhere ----

    private static void closed() throws Exception {
        System.out.println("RESULT jdk_feature " + Runtime.version().feature());
        ExecutorService pool = Executors.newFixedThreadPool(1);
        openOnWorkerCloseElsewhere("pool", pool::submit);
        pool.shutdown();
        ForkJoinPool fjp = new ForkJoinPool(1);
        openOnWorkerCloseElsewhere("fjp", fjp::submit);
        fjp.shutdown();
        servletStyle();
        ExecutorService carried = Executors.newFixedThreadPool(1);
        carriedThenClosed("carried_pool", carried);
        carried.shutdown();
        if (Runtime.version().feature() >= 21) {
            ExecutorService virtual = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
            carriedThenClosed("carried_virtual", virtual);
            virtual.shutdown();
        }
        System.out.println("RESULT main_after " + Task.current().map(Task::id).orElse("none"));
    }

    interface Submit {
        <T> java.util.concurrent.Future<T> submit(Callable<T> work);
    }

    /**
     * The conversation opens its task on a pooled worker and calls the tool there; the task is closed
     * from this thread; the same worker then calls the tool with the same intent and no task.
     */
    private static void openOnWorkerCloseElsewhere(String name, Submit pool) throws Exception {
        String verb = "note_" + name;
        AtomicReference<Task> opened = new AtomicReference<>();
        String[] first = pool.submit(() -> {
            opened.set(Task.open("conv-" + name, "alice", Duration.ofSeconds(60)));
            return new String[] {TOOLS.sendNote("erin", "Your table is booked", verb), Thread.currentThread().getName()};
        }).get(WAIT_S, TimeUnit.SECONDS);
        opened.get().close(); // not on the thread that opened it
        String[] later = pool.submit(() -> new String[] {TOOLS.sendNote("erin", "Your table is booked!", verb),
                Thread.currentThread().getName()}).get(WAIT_S, TimeUnit.SECONDS);
        System.out.println("RESULT " + name + "_first " + first[0]);
        System.out.println("RESULT " + name + "_later " + later[0]);
        System.out.println("RESULT " + name + "_same_worker " + first[1].equals(later[1]));
    }

    /** The same, through an HTTP server's one-thread request pool: request 1 opens the task, request 2 has none. */
    private static void servletStyle() throws Exception {
        String verb = "note_http";
        ExecutorService requests = Executors.newFixedThreadPool(1);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(requests);
        AtomicReference<Task> opened = new AtomicReference<>();
        server.createContext("/", ex -> {
            try (ex) {
                String answer;
                try {
                    if (ex.getRequestURI().getPath().equals("/open")) {
                        opened.set(Task.open("conv-http", "bob", Duration.ofSeconds(60)));
                        answer = TOOLS.sendNote("frank", "Your parcel ships today", verb);
                    } else {
                        answer = TOOLS.sendNote("frank", "Your parcel ships today!", verb);
                    }
                    answer += " " + Thread.currentThread().getName();
                } catch (Exception e) {
                    answer = "failed " + e;
                }
                byte[] body = answer.getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            String[] first = get(base + "/open").split(" ");
            opened.get().close(); // the conversation ends elsewhere (an async completion, another request)
            String[] later = get(base + "/later").split(" ");
            System.out.println("RESULT http_first " + first[0]);
            System.out.println("RESULT http_later " + later[0]);
            System.out.println("RESULT http_same_worker " + first[1].equals(later[1]));
        } finally {
            server.stop(0);
            requests.shutdown();
        }
    }

    private static String get(String url) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_S));
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
    }

    /** Work carried onto a worker keeps the task while it is open and sees none once it was closed. */
    private static void carriedThenClosed(String name, ExecutorService pool) throws Exception {
        String verb = "note_" + name;
        CountDownLatch firstDone = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        java.util.concurrent.Future<String[]> work;
        Task task = Task.open("conv-" + name, "carol", Duration.ofSeconds(60));
        try {
            work = pool.submit(() -> {
                String before = TOOLS.sendNote("gina", "See you at noon", verb);
                firstDone.countDown();
                if (!closed.await(WAIT_S, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never closed");
                }
                return new String[] {before, TOOLS.sendNote("gina", "See you at noon!", verb)};
            });
        } finally {
            Task.enter(null); // this thread lets go first: the close below comes from elsewhere
        }
        if (!firstDone.await(WAIT_S, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the first call never finished");
        }
        Thread closer = new Thread(task::close);
        closer.start();
        closer.join();
        closed.countDown();
        String[] seen = work.get(WAIT_S, TimeUnit.SECONDS);
        System.out.println("RESULT " + name + "_open " + seen[0]);
        System.out.println("RESULT " + name + "_closed " + seen[1]);
    }

    // ---- Timer and delayedExecutor carry the task ----

    private static void timer() throws Exception {
        Timer timer = new Timer("sdk-sleeper", true);
        try (Task task = Task.open("t-timer", "dana", Duration.ofSeconds(60))) {
            // a TimerTask calling the tool directly, twice (the second rephrased)
            for (String text : new String[] {"Order 17 shipped", "Order 17 has shipped"}) {
                CompletableFuture<String> ran = new CompletableFuture<>();
                timer.schedule(new TimerTask() {
                    @Override
                    public void run() {
                        complete(ran, () -> TOOLS.sendNote("hank", text, "timer_task"));
                    }
                }, 10);
                System.out.println("RESULT timer_task_" + (text.contains("has") ? 2 : 1) + " "
                        + ran.get(WAIT_S, TimeUnit.SECONDS));
            }
            // an async SDK's retry: sleepAsync is a future a TimerTask completes, the retry is chained on it
            for (String text : new String[] {"Refund issued", "Refund has been issued"}) {
                String seen = sleepAsync(timer, 10).thenApply(x -> call(() -> TOOLS.sendNote("ivy", text, "sdk_retry")))
                        .get(WAIT_S, TimeUnit.SECONDS);
                System.out.println("RESULT sdk_retry_" + (text.contains("has") ? 2 : 1) + " " + seen);
            }
            // a periodic TimerTask: every run is in the task
            CountDownLatch twice = new CountDownLatch(2);
            AtomicReference<String> periodic = new AtomicReference<>("");
            TimerTask every = new TimerTask() {
                @Override
                public void run() {
                    if (twice.getCount() > 0) {
                        periodic.accumulateAndGet(Task.current().map(Task::id).orElse("none"), (a, b) -> a.isEmpty() ? b : a + "," + b);
                        twice.countDown();
                    }
                }
            };
            timer.scheduleAtFixedRate(every, 1, 5);
            twice.await(WAIT_S, TimeUnit.SECONDS);
            every.cancel();
            System.out.println("RESULT timer_periodic " + periodic.get());
            // CompletableFuture.delayedExecutor, with the default and with an explicit executor
            ExecutorService pool = Executors.newFixedThreadPool(1);
            String d1 = CompletableFuture.supplyAsync(() -> call(() -> TOOLS.sendNote("jack", "Invoice sent", "delayed")),
                    CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS)).get(WAIT_S, TimeUnit.SECONDS);
            String d2 = CompletableFuture.supplyAsync(() -> call(() -> TOOLS.sendNote("jack", "The invoice was sent", "delayed")),
                    CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS, pool)).get(WAIT_S, TimeUnit.SECONDS);
            pool.shutdown();
            System.out.println("RESULT delayed_1 " + d1);
            System.out.println("RESULT delayed_2 " + d2);
        }
        // after the task: the timer thread runs a TimerTask scheduled outside any task with none
        CompletableFuture<String> after = new CompletableFuture<>();
        timer.schedule(new TimerTask() {
            @Override
            public void run() {
                after.complete(Task.current().map(Task::id).orElse("none"));
            }
        }, 1);
        System.out.println("RESULT timer_after " + after.get(WAIT_S, TimeUnit.SECONDS));
        timer.cancel();
    }

    /** What the Anthropic and OpenAI SDKs' DefaultSleeper does: a future completed by a TimerTask. */
    private static CompletableFuture<Void> sleepAsync(Timer timer, long ms) {
        CompletableFuture<Void> slept = new CompletableFuture<>();
        timer.schedule(new TimerTask() {
            @Override
            public void run() {
                slept.complete(null);
            }
        }, ms);
        return slept;
    }

    private static void complete(CompletableFuture<String> f, Callable<String> work) {
        try {
            f.complete(work.call());
        } catch (Throwable t) {
            f.completeExceptionally(t);
        }
    }

    private static String call(Callable<String> work) {
        try {
            return work.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

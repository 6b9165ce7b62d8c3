package dev.effectful.bench;

import dev.effectful.Task;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One host JVM of the fleet bench, started by {@link Fleet} with the real agent jar and its own
 * journal directory. Its threads make new MONEY intents from start; the driver's {@code GO millis}
 * line on stdin opens the measuring window on every host at once. Then, on {@code SHARED}, every
 * thread walks the same ids in one fleet-wide task and the host reports how many bodies it ran.
 *
 * <pre>java -javaagent:effectful-agent.jar=... -cp benchmarks.jar dev.effectful.bench.FleetHost NAME THREADS SHARED_IDS</pre>
 * Prints {@code READY warmCalls warmMillis}, then {@code RESULT calls latenciesFile}, then {@code SHARED bodies errors}.
 */
public final class FleetHost {

    private FleetHost() {
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int threads = Integer.parseInt(args[1]);
        int sharedIds = Integer.parseInt(args[2]);
        java.nio.file.Path latencies = java.nio.file.Path.of(args[3]);
        FleetTools tools = new FleetTools();
        try (Task t = Task.open("fleet-check-" + name, Duration.ofMinutes(1))) {
            if (!tools.agentActive()) {
                throw new IllegalStateException("the Effectful agent did not rewrite FleetTools");
            }
        }
        Callers c = new Callers(threads);
        for (int i = 0; i < threads; i++) {
            String prefix = name + "-t" + i + "-";
            Thread th = new Thread(() -> call(c, tools, prefix), "fleet-caller-" + i);
            th.setDaemon(true);
            th.start();
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        long began = System.nanoTime();
        warmUp(c.warm(), began);
        System.out.println("READY " + c.warm().get() + " " + (System.nanoTime() - began) / 1_000_000);
        System.out.flush();
        String go = in.readLine();
        if (go == null || !go.startsWith("GO ")) {
            throw new IllegalStateException("expected GO, got " + go);
        }
        long now = System.nanoTime();
        c.windowStart().set(now);
        c.windowEnd().set(now + Long.parseLong(go.substring(3).trim()) * 1_000_000L);
        c.done().await();
        long calls = writeLatencies(latencies, c.perThread());
        System.out.println(String.format(Locale.ROOT, "RESULT %d %d", calls, c.errors().get()));
        System.out.flush();
        String shared = in.readLine();
        if (shared != null && shared.startsWith("SHARED")) {
            sharedWalk(name, threads, sharedIds, tools);
        }
        System.exit(0);
    }

    /** What the calling threads share with main: the measuring window (System.nanoTime, set by GO) and their counts. */
    private record Callers(AtomicLong windowStart, AtomicLong windowEnd, CountDownLatch done, List<long[]> perThread,
                           AtomicLong errors, AtomicLong warm) {
        Callers(int threads) {
            this(new AtomicLong(Long.MAX_VALUE), new AtomicLong(Long.MAX_VALUE), new CountDownLatch(threads),
                    Collections.synchronizedList(new ArrayList<>()), new AtomicLong(), new AtomicLong());
        }
    }

    /** One calling thread: new intents from the start, latencies kept for the calls inside the window. */
    private static void call(Callers c, FleetTools tools, String prefix) {
        long[] lat = new long[1 << 16];
        int n = 0;
        long seq = 0;
        try (Task task = Task.open("fleet-" + prefix, Duration.ofHours(1))) {
            while (true) {
                long t0 = System.nanoTime();
                if (t0 >= c.windowEnd().get()) {
                    break;
                }
                try {
                    tools.charge(prefix + seq++, 100);
                } catch (RuntimeException e) {
                    c.errors().incrementAndGet();
                }
                long t1 = System.nanoTime();
                c.warm().incrementAndGet();
                if (t0 >= c.windowStart().get() && t1 <= c.windowEnd().get()) {
                    if (n == lat.length) {
                        lat = java.util.Arrays.copyOf(lat, n * 2);
                    }
                    lat[n++] = t1 - t0;
                }
            }
        } finally {
            c.perThread().add(java.util.Arrays.copyOf(lat, n));
            c.done().countDown();
        }
    }

    /**
     * A few thousand calls, then until the JIT has compiled the path (its compile time still for 2 s), as on a
     * host that has been up for a while; at most 60 s. A window opened on a young JVM measures C2 (a fifth of
     * both cores in a 3 x 4 run) as much as the store.
     */
    private static void warmUp(AtomicLong warm, long began) throws InterruptedException {
        long warmUntil = began + 60_000_000_000L;
        while (warm.get() < 3_000 && System.nanoTime() < warmUntil) {
            Thread.sleep(20);
        }
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        long compiled = jit.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < warmUntil && System.nanoTime() - quietSince < 2_000_000_000L) {
            Thread.sleep(250);
            long now = jit.getTotalCompilationTime();
            if (now - compiled > 10) {
                quietSince = System.nanoTime();
            }
            compiled = now;
        }
    }

    /** Every latency of the window, as longs, for the driver; how many calls that is. */
    private static long writeLatencies(java.nio.file.Path latencies, List<long[]> perThread) throws java.io.IOException {
        long calls = 0;
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(new java.io.BufferedOutputStream(
                java.nio.file.Files.newOutputStream(latencies)))) {
            for (long[] l : perThread) {
                calls += l.length;
                for (long v : l) {
                    out.writeLong(v);
                }
            }
        }
        return calls;
    }

    /** Every thread walks the same ids, shuffled its own way, in one fleet-wide task; prints how many bodies ran. */
    private static void sharedWalk(String name, int threads, int sharedIds, FleetTools tools) throws InterruptedException {
        long before = FleetTools.BODIES.get();
        AtomicLong sharedErrors = new AtomicLong();
        List<Thread> walkers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int seed = i;
            Thread w = new Thread(() -> {
                List<Integer> ids = new ArrayList<>();
                for (int k = 0; k < sharedIds; k++) {
                    ids.add(k);
                }
                Collections.shuffle(ids, new java.util.Random(name.hashCode() * 31L + seed));
                // one task for the whole fleet: the same intents on every host and thread
                try (Task task = Task.open("fleet-shared", Duration.ofMinutes(10))) {
                    for (int id : ids) {
                        try {
                            tools.charge("shared-" + id, 100);
                        } catch (RuntimeException e) {
                            sharedErrors.incrementAndGet();
                        }
                    }
                }
            }, "fleet-walker-" + i);
            w.start();
            walkers.add(w);
        }
        for (Thread w : walkers) {
            w.join();
        }
        System.out.println("SHARED " + (FleetTools.BODIES.get() - before) + " " + sharedErrors.get());
        System.out.flush();
    }
}

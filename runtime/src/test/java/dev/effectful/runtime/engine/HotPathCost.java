package dev.effectful.runtime.engine;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.core.config.EffectfulConfig;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * Not a test: run by hand to see what one call costs the engine on one thread, in CPU time and in
 * bytes allocated (ThreadMXBean), which a busy machine disturbs far less than wall time. The calls
 * are the bench's (a new SEND intent with three small arguments, the same intent again, a READ),
 * through {@link CallEngine#enter}/{@link CallEngine#exit} on a real Chronicle journal, without the
 * agent's advice in front.
 *
 * <pre>java $(chronicle opens) -cp runtime/target/classes:runtime/target/test-classes:$(deps) dev.effectful.runtime.engine.HotPathCost</pre>
 */
public final class HotPathCost {

    /** The bench's MailTools, as far as the engine sees it. */
    public static class MailTools {
        @EffectfulTool(kind = EffectKind.SEND, name = "send_email")
        public String sendEmail(@IntentKey String to, String subject, int priority) {
            return "queued";
        }

        @EffectfulTool(kind = EffectKind.READ, name = "get_price")
        public String getPrice(@IntentKey String sku) {
            return "42.00";
        }
    }

    private static final String SEND = "sendEmail(Ljava/lang/String;Ljava/lang/String;I)Ljava/lang/String;";
    private static final String READ = "getPrice(Ljava/lang/String;)Ljava/lang/String;";

    private HotPathCost() {
    }

    public static void main(String[] a) throws Exception {
        int calls = a.length > 0 ? Integer.parseInt(a[0]) : 20_000;
        int rounds = a.length > 1 ? Integer.parseInt(a[1]) : 7;
        // a third argument keeps one kind of call only (new, dedup, read): for a profile of it alone
        String only = a.length > 2 ? a[2] : null;
        Path dir = Files.createTempDirectory("hotpath");
        CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + dir));
        MailTools tools = new MailTools();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long[] n = {0};
        try (Task t = Task.open("hot-1", Duration.ofHours(6))) {
            call(engine, tools, SEND, "repeat@example.com", "Your order has shipped", 3);
            Runnable fresh = () -> call(engine, tools, SEND, "t0-" + n[0]++ + "@example.com", "Your order has shipped", 3);
            Runnable dedup = () -> call(engine, tools, SEND, "repeat@example.com", "Your order has shipped", 3);
            Runnable read = () -> call(engine, tools, READ, "sku-42");
            String[] names = {"new intent", "dedup hit", "read"};
            Runnable[] bodies = {fresh, dedup, read};
            double[][] cpu = new double[3][rounds];
            double[][] alloc = new double[3][rounds];
            double[][] wall = new double[3][rounds];
            for (int w = 0; w < 3; w++) {
                for (int b = 0; b < bodies.length; b++) {
                    for (int i = 0; i < calls && (only == null || names[b].startsWith(only)); i++) {
                        bodies[b].run();
                    }
                }
            }
            for (int round = 0; round < rounds; round++) {
                for (int b = 0; b < bodies.length; b++) {
                    if (only != null && !names[b].startsWith(only)) {
                        continue;
                    }
                    long c0 = mx.getCurrentThreadCpuTime();
                    long a0 = mx.getThreadAllocatedBytes(tid);
                    long w0 = System.nanoTime();
                    for (int i = 0; i < calls; i++) {
                        bodies[b].run();
                    }
                    wall[b][round] = (System.nanoTime() - w0) / (double) calls;
                    alloc[b][round] = (mx.getThreadAllocatedBytes(tid) - a0) / (double) calls;
                    cpu[b][round] = (mx.getCurrentThreadCpuTime() - c0) / (double) calls;
                }
            }
            for (int b = 0; b < bodies.length; b++) {
                if (only != null && !names[b].startsWith(only)) {
                    continue;
                }
                System.out.printf("%-10s cpu median %6.0f ns (min %6.0f)  wall median %6.0f ns  alloc %6.0f B/call%n",
                        names[b], median(cpu[b]), Arrays.stream(cpu[b]).min().orElse(0), median(wall[b]),
                        median(alloc[b]));
            }
        } finally {
            engine.close();
        }
        System.exit(0);
    }

    /**
     * For a side-by-side driver that loads two builds of the runtime in two class loaders and
     * alternates them in one JVM, so the machine's load falls on both alike: an engine on a fresh
     * journal in {@code dir} and its three kinds of call (new intent, dedup hit, read), to run
     * inside a task the caller opened.
     */
    public static Runnable[] calls(String dir) {
        CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + dir));
        MailTools tools = new MailTools();
        long[] n = {0};
        Runnable fresh = () -> call(engine, tools, SEND, "t0-" + n[0]++ + "@example.com", "Your order has shipped", 3);
        Runnable dedup = () -> call(engine, tools, SEND, "repeat@example.com", "Your order has shipped", 3);
        Runnable read = () -> call(engine, tools, READ, "sku-42");
        return new Runnable[] {fresh, dedup, read};
    }

    private static void call(CallEngine engine, Object tools, String sig, Object... args) {
        Object h = engine.enter(tools.getClass(), sig, tools, args);
        Object returned = null;
        if (!engine.skipBody(h)) {
            returned = sig == SEND ? "queued" : "42.00";
        }
        Completion c = engine.exit(h, returned, null);
        if (c.thrown() != null) {
            throw new AssertionError(c.thrown());
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}

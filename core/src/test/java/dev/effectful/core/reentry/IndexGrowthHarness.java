package dev.effectful.core.reentry;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Not a test (no assertions, run by hand): new keys into a fresh engine index as fast as the given
 * threads can, each insert timed alone. Prints per thread the CPU time per insert (ThreadMXBean,
 * which load from other processes barely moves), and the worst single inserts by wall and by the
 * thread's CPU time (page faults included): the growth pauses.
 * Uses only the index's public surface, so the same class runs against an older build's classes.
 *
 * <pre>java -cp test-classes:classes:deps dev.effectful.core.reentry.IndexGrowthHarness KEYS THREADS DIR</pre>
 */
public final class IndexGrowthHarness {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private IndexGrowthHarness() {
    }

    public static void main(String[] args) throws Exception {
        int keys = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        Path dir = Files.createDirectories(Path.of(args[2]));
        LocalIntentIndex index = LocalIntentIndex.inDirectory(dir);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        AtomicLong journalIndex = new AtomicLong();
        long[][] pauses = new long[threads][];
        long[][] cpuPauses = new long[threads][];
        long[] cpu = new long[threads];
        List<Thread> workers = new ArrayList<>();
        long wallStart = System.nanoTime();
        for (int w = 0; w < threads; w++) {
            int me = w;
            Thread t = new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(31 + me);
                char[] hex = new char[32];
                long[] worst = new long[8];
                long[] worstCpu = new long[8];
                long cpu0 = mx.getCurrentThreadCpuTime();
                for (int n = 0; n < keys / threads; n++) {
                    fill(hex, rnd.nextLong(), 0);
                    fill(hex, rnd.nextLong(), 16);
                    JournalRecord r = JournalRecord.of(RecordType.INTENT).intentKey(new String(hex)).attempt(1)
                            .started(1_764_000_000_000L).build();
                    long c0 = mx.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    index.apply(journalIndex.incrementAndGet(), r);
                    long took = System.nanoTime() - t0;
                    long tookCpu = mx.getCurrentThreadCpuTime() - c0;
                    if (took > worst[0]) {
                        worst[0] = took;
                        Arrays.sort(worst);
                    }
                    if (tookCpu > worstCpu[0]) {
                        worstCpu[0] = tookCpu;
                        Arrays.sort(worstCpu);
                    }
                }
                cpu[me] = mx.getCurrentThreadCpuTime() - cpu0;
                pauses[me] = worst;
                cpuPauses[me] = worstCpu;
            }, "harness-" + w);
            workers.add(t);
            t.start();
        }
        for (Thread t : workers) {
            t.join();
        }
        long wall = System.nanoTime() - wallStart;
        System.out.printf("keys=%d threads=%d wall=%.0f ms size=%d slots=%d%n", keys, threads, wall / 1e6, index.size(),
                index.tableSlots());
        for (int w = 0; w < threads; w++) {
            long[] worst = pauses[w];
            System.out.printf("  thread %d: cpu %.0f ns/insert (incl. record build and timing); worst inserts, wall ms:", w,
                    (double) cpu[w] / (keys / threads));
            for (int i = worst.length - 1; i >= 0; i--) {
                System.out.printf(" %.1f", worst[i] / 1e6);
            }
            System.out.print("; cpu ms:");
            for (int i = cpuPauses[w].length - 1; i >= 0; i--) {
                System.out.printf(" %.1f", cpuPauses[w][i] / 1e6);
            }
            System.out.println();
        }
    }

    private static void fill(char[] out, long v, int at) {
        for (int i = 15; i >= 0; i--) {
            out[at + i] = HEX[(int) (v & 15)];
            v >>>= 4;
        }
    }
}

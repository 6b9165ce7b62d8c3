package dev.effectful.runtime.engine;

import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;

/**
 * Not a test: two builds of the runtime side by side in one JVM, each in its own class loader
 * (annotations, Jackson and Chronicle shared from the class path), their {@link HotPathCost#calls}
 * alternated per batch, so whatever load the machine has falls on both alike. Prints per kind of
 * call the median CPU time of each side, the median of the paired differences, and the bytes
 * allocated per call. The class path must not hold the runtime's own classes.
 *
 * <pre>java $(chronicle opens) -cp DIR_WITH_THIS_CLASS:$(deps without runtime) dev.effectful.runtime.engine.HotPathSideBySide \
 *     BASE_RUNTIME_CLASSES NEW_RUNTIME_CLASSES DIR_WITH_HOTPATHCOST_CLASSES ROUNDS BATCH</pre>
 */
public final class HotPathSideBySide {

    private HotPathSideBySide() {
    }

  public static void main(String[] a) throws Exception {
    String[] sides = {a[0], a[1]}; // runtime class dirs: base, new
    URL harness = Path.of(a[2]).toUri().toURL();
    int rounds = Integer.parseInt(a[3]), batch = Integer.parseInt(a[4]);
    ClassLoader parent = HotPathSideBySide.class.getClassLoader();
    Runnable[][] calls = new Runnable[2][];
    for (int s = 0; s < 2; s++) {
      URLClassLoader l = new URLClassLoader(new URL[] {Path.of(sides[s]).toUri().toURL(), harness}, parent);
      Class<?> h = Class.forName("dev.effectful.runtime.engine.HotPathCost", true, l);
      calls[s] = (Runnable[]) h.getMethod("calls", String.class).invoke(null, Files.createTempDirectory("ab" + s).toString());
    }
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long tid = Thread.currentThread().getId();
    String[] names = {"new intent", "dedup hit", "read"};
    double[][][] cpu = new double[2][3][rounds], alloc = new double[2][3][rounds];
    try (dev.effectful.Task t = dev.effectful.Task.open("ab-1", Duration.ofHours(6))) {
      for (int s = 0; s < 2; s++) calls[s][1].run();
      for (int w = 0; w < 5; w++) for (int s = 0; s < 2; s++) for (Runnable r : calls[s]) for (int i = 0; i < batch; i++) r.run();
      for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < 3; k++) {
          for (int o = 0; o < 2; o++) {
            int s = (round + o) % 2; // alternate which side goes first
            Runnable r = calls[s][k];
            long c0 = mx.getCurrentThreadCpuTime(), a0 = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < batch; i++) r.run();
            cpu[s][k][round] = (mx.getCurrentThreadCpuTime() - c0) / (double) batch;
            alloc[s][k][round] = (mx.getThreadAllocatedBytes(tid) - a0) / (double) batch;
          }
        }
      }
    }
    for (int k = 0; k < 3; k++) {
      double[] diff = new double[rounds];
      for (int r = 0; r < rounds; r++) diff[r] = cpu[1][k][r] - cpu[0][k][r];
      System.out.printf("%-10s base cpu %5.0f ns (p25 %5.0f)  new cpu %5.0f ns (p25 %5.0f)  paired diff median %+5.0f ns (%+.0f%%)  alloc %5.0f -> %5.0f B%n",
          names[k], med(cpu[0][k]), q(cpu[0][k], .25), med(cpu[1][k]), q(cpu[1][k], .25), med(diff), 100 * med(diff) / med(cpu[0][k]), med(alloc[0][k]), med(alloc[1][k]));
    }
    System.exit(0);
  }
  static double med(double[] v) { return q(v, .5); }
  static double q(double[] v, double p) { double[] s = v.clone(); Arrays.sort(s); return s[(int) (p * (s.length - 1))]; }
}

package dev.effectful.agent.installer;

import dev.effectful.core.log.AgentLog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Whether the application is still starting. Work the agent does ahead of need (opening the journal,
 * rebuilding the index, warming Jackson and the call path: about a second of CPU) waits until the
 * application's start has quieted, so it does not share the cores with it: on two cores a Spring Boot
 * start keeps both busy for ten seconds, and every second of the agent's CPU meanwhile was most of a
 * second later to the first HTTP answer. A call that needs the engine never waits for the quiet: it asks
 * for the start at once ({@link #await}'s {@code needed}).
 *
 * <p>Quiet is a window of {@link #WINDOW_MILLIS} in which the application loaded fewer than
 * {@link #QUIET_CLASSES} classes (every one passes the agent's transformer) and, where the process's CPU
 * time can be read ({@code /proc/self/stat}: a file, no subprocess), used under a quarter of one core.
 * Both, because either alone is fooled: a start that builds its database schema loads no classes for
 * a while and keeps a core busy, and an idle application may load the odd class.
 *
 * <p>The class count is written racily on purpose (a volatile field, not an atomic): the class-load path
 * pays one store, and a lost increment only makes a window look a class quieter.
 */
final class StartupQuiet {

    /** One look per window. */
    static final long WINDOW_MILLIS = 100;
    /** Fewer new classes than this in a window is quiet: a running application's occasional class. */
    static final int QUIET_CLASSES = 10;
    /** At most this share of one core used in a window is quiet (the application waits: for a request, a model). */
    static final double QUIET_CORE_SHARE = 0.25;
    /** Past this the work starts anyway: an application that never rests still gets its journal opened. */
    static final long LONGEST_WAIT_MILLIS = 30_000;

    private static final Path PROC_STAT = Path.of("/proc/self/stat");
    /** The kernel's clock tick for {@code /proc} CPU times: 100 Hz on every Linux the JDK runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private volatile long seen;

    /** The transformer was handed a class. */
    void classSeen() {
        seen++;
    }

    /**
     * Returns once a window was quiet, once {@code needed} is counted down, or after
     * {@link #LONGEST_WAIT_MILLIS}, whichever comes first; {@code what} waited, for the debug line.
     */
    void await(CountDownLatch needed, String what) throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(LONGEST_WAIT_MILLIS);
        long classesBefore = seen;
        long cpuBefore = processCpuNanos();
        String why = "still busy after " + LONGEST_WAIT_MILLIS + " ms";
        while (System.nanoTime() < deadline) {
            if (needed.await(WINDOW_MILLIS, TimeUnit.MILLISECONDS)) {
                why = "a call needs it";
                break;
            }
            long classes = seen;
            long cpu = processCpuNanos();
            if (isQuiet(classes - classesBefore, cpuBefore < 0 || cpu < 0 ? -1 : cpu - cpuBefore)) {
                why = "quiet";
                break;
            }
            classesBefore = classes;
            cpuBefore = cpu;
        }
        AgentLog.debug("effectful " + what + " after waiting " + (System.nanoTime() - t0) / 1_000_000
                + " ms for the application's start (" + why + ", " + seen + " classes seen)");
    }

    /** Whether a window with {@code classes} loaded and {@code cpuNanos} of CPU used (negative: unknown) is quiet. */
    static boolean isQuiet(long classes, long cpuNanos) {
        return classes < QUIET_CLASSES
                && (cpuNanos < 0 || cpuNanos <= QUIET_CORE_SHARE * TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS));
    }

    /**
     * User and system CPU time of the whole process so far, or -1 where {@code /proc} cannot tell. Not
     * {@code ProcessHandle.current().info()}: its class initialisation builds the JDK's process-reaper pool
     * (see {@code JournalLock.ownPid}), in the middle of the application's start.
     */
    static long processCpuNanos() {
        try {
            return cpuNanos(new String(Files.readAllBytes(PROC_STAT), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Fields 14 and 15 (utime, stime) of a {@code /proc/PID/stat} line; the name before them may hold spaces. */
    static long cpuNanos(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // f[0] is field 3 (the state), so field n is f[n - 3]
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
    }
}

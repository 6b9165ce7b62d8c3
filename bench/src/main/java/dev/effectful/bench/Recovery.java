package dev.effectful.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recovery: a journal of 1,000,000 attempts; the time from JVM start to the first call served with
 * the agent rebuilding its index from it, the heap per remembered key, and the disk per attempt.
 */
final class Recovery {

    static final int ATTEMPTS = 1_000_000;

    /** What the recovery part reports; histogram is the top of a live class histogram, for the note. */
    /**
     * @param secondsToFirstCall      a restart of an agent that ran on this journal before (its index
     *                                snapshot is there): the usual case
     * @param coldSecondsToFirstCall  the first start on a journal with no snapshot: a full replay
     */
    record Result(long records, double secondsToFirstCall, double msSinceJvmStart, double coldSecondsToFirstCall,
                  double heapBytesPerKey, double diskBytesPerAttempt, double diskAllocatedBytesPerAttempt,
                  double snapshotBytesPerKey, double generateSeconds, List<String> histogram) {
    }

    private final Settings settings;

    Recovery(Settings settings) {
        this.settings = settings;
    }

    Result run() throws IOException, InterruptedException {
        Path full = settings.work().resolve("recovery-journal");
        Path empty = settings.work().resolve("recovery-empty");
        Dirs.delete(full);
        Dirs.delete(empty);
        try {
            JournalGenerator.Written w = JournalGenerator.generate(full, ATTEMPTS);
            long allocated = 0;
            try (var files = Files.list(full)) {
                for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".cq4"))::iterator) {
                    allocated += Dirs.allocatedBytes(p);
                }
            }
            System.out.printf("== recovery: wrote %,d attempts (%,d records) in %.1f s; cycle file used %,d bytes,"
                    + " allocated %,d%n", w.attempts(), w.records(), w.seconds(), w.usedBytes(), allocated);

            Probe base = probe(empty, false, null);
            // the first start replays everything and leaves an index snapshot for the next ones
            Path snapshot = full.resolve("index.snapshot");
            Probe cold = probe(full, false, snapshot);
            List<Double> wall = new ArrayList<>();
            List<Double> sinceStart = new ArrayList<>();
            Probe last = null;
            int runs = settings.quick() ? 1 : 3;
            for (int i = 0; i < runs; i++) {
                last = probe(full, i == runs - 1, null);
                wall.add(last.wallMs());
                sinceStart.add(last.sinceJvmStartMs());
            }
            double heapPerKey = (double) (last.heapUsed() - base.heapUsed()) / ATTEMPTS;
            double snapshotPerKey = Files.exists(snapshot) ? (double) Files.size(snapshot) / ATTEMPTS : Double.NaN;
            System.out.printf("== recovery: first call served %.0f ms after launch (%.0f ms after JVM start) with the"
                    + " index snapshot, %.0f ms without (first start); heap %,d vs %,d empty = %.0f bytes/key;"
                    + " snapshot %.0f bytes/key%n", Startup.median(wall), Startup.median(sinceStart), cold.wallMs(),
                    last.heapUsed(), base.heapUsed(), heapPerKey, snapshotPerKey);
            return new Result(w.records(), Startup.median(wall) / 1000.0, Startup.median(sinceStart),
                    cold.wallMs() / 1000.0, heapPerKey, (double) w.usedBytes() / ATTEMPTS, (double) allocated / ATTEMPTS,
                    snapshotPerKey, w.seconds(), last.histogram());
        } finally {
            Dirs.delete(full);
            Dirs.delete(empty);
        }
    }

    record Probe(double wallMs, double sinceJvmStartMs, long heapUsed, List<String> histogram) {
    }

    /** @param awaitFile if not null, the probe is kept alive until this file exists (bounded) */
    Probe probe(Path journal, boolean histogram, Path awaitFile) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Settings.java17().toString(), "-Xms512m", "-Xmx4g", "-XX:+UseG1GC"));
        // e.g. -Dbench.recovery.jvmArgs=-XX:StartFlightRecording=filename=rec.jfr to see where the rebuild goes
        String extra = System.getProperty("bench.recovery.jvmArgs", "").trim();
        if (!extra.isEmpty()) {
            cmd.addAll(List.of(extra.split("\\s+")));
        }
        cmd.addAll(List.of("-javaagent:" + settings.agentJar(), "-Deffectful.journal.dir=" + journal,
                "-cp", System.getProperty("java.class.path"), RecoveryProbe.class.getName()));
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Double wall = null;
        Double since = null;
        Long heap = null;
        List<String> hist = List.of();
        StringBuilder seen = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             OutputStream in = p.getOutputStream()) {
            String l;
            while ((l = r.readLine()) != null) {
                seen.append(l).append('\n');
                if (l.startsWith("SERVED")) {
                    wall = (System.nanoTime() - t0) / 1e6;
                    since = Double.valueOf(field(l, "since_jvm_start_ms"));
                } else if (l.startsWith("NO-AGENT")) {
                    throw new IOException("the recovery probe ran without the agent:\n" + seen);
                } else if (l.startsWith("HEAP")) {
                    heap = Long.valueOf(field(l, "used"));
                    if (histogram) {
                        hist = histogram(p.pid());
                    }
                    if (awaitFile != null) {
                        awaitFile(awaitFile, 180);
                    }
                    in.write('\n');
                    in.flush();
                }
            }
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        if (wall == null || heap == null) {
            throw new IOException("recovery probe did not report: " + cmd + "\n" + seen);
        }
        return new Probe(wall, since, heap, hist);
    }

    private static void awaitFile(Path f, int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!Files.exists(f) && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        if (!Files.exists(f)) {
            System.out.println("== recovery: no index snapshot appeared within " + seconds + " s; the next starts"
                    + " replay the whole journal too");
        }
    }

    private static String field(String line, String name) {
        Matcher m = Pattern.compile(name + "=(\\d+)").matcher(line);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + name + " in " + line);
        }
        return m.group(1);
    }

    /** The top of the live heap by class, to show what a remembered key costs. */
    private static List<String> histogram(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                .redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(l -> l.matches("\\s*\\d+:.*")).limit(12).toList();
        p.waitFor(30, TimeUnit.SECONDS);
        return lines;
    }
}

package dev.effectful.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first call: a fresh JVM with the agent whose {@code main} calls a tool at once
 * ({@link FirstCallProbe}); the latency from main's start to that call served. Runs alternate: a fresh
 * JVM on no journal (the directory does not exist yet), then a restart on the journal it left
 * (one intent and its outcome), so a load that drifts weighs on both alike; medians of each.
 */
final class FirstCall {

    static final int RUNS = 11;
    static final int QUICK_RUNS = 5;

    private final Settings settings;

    FirstCall(Settings settings) {
        this.settings = settings;
    }

    /** empty_journal_ms, restart_ms (medians), main_at_ms (median, from JVM start), runs. */
    Map<String, Double> run() throws IOException, InterruptedException {
        int runs = settings.quick() ? QUICK_RUNS : RUNS;
        List<Double> fresh = new ArrayList<>();
        List<Double> restart = new ArrayList<>();
        List<Double> mainAt = new ArrayList<>();
        for (int i = 0; i <= runs; i++) { // run 0 warms the page cache and is not counted
            Path journal = settings.work().resolve("first-call-journal-" + i);
            try {
                double[] a = probe(journal);
                double[] b = probe(journal);
                if (i > 0) {
                    fresh.add(a[0]);
                    restart.add(b[0]);
                    mainAt.add(a[1]);
                }
            } finally {
                Dirs.delete(journal);
            }
        }
        Map<String, Double> out = medians(List.of("empty_journal_ms", "restart_ms", "main_at_ms"), fresh, restart, mainAt);
        out.put("runs", (double) runs);
        late(Settings.java17(), "JDK 17").forEach((k, v) -> out.put("jdk17_" + k, v));
        if (settings.jdk25Home() != null && java.nio.file.Files.isExecutable(settings.jdk25Home().resolve("bin/java"))) {
            late(settings.jdk25Home().resolve("bin/java"), "JDK 25").forEach((k, v) -> out.put("jdk25_" + k, v));
        }
        System.out.printf("== first call: main to served %.1f ms on an empty journal %s, %.1f ms on a restart %s"
                + " (medians of %d; main began %.0f ms after JVM start)%n", out.get("empty_journal_ms"), fresh,
                out.get("restart_ms"), restart, runs, out.get("main_at_ms"));
        return out;
    }

    /** How long after {@code main} begins the late variant's first call comes. */
    static final long LATE_DELAY_MS = 1000;
    static final int LATE_RUNS = 5;

    /**
     * The first call of an application that calls its first tool {@link #LATE_DELAY_MS} after {@code main} (its
     * tools built at start): what that call costs more than the tenth, median of {@link #LATE_RUNS} fresh JVMs on
     * an empty journal, on {@code java}. late_first_ms, late_tenth_ms, late_added_ms (the median of the differences).
     */
    private Map<String, Double> late(Path java, String label) throws IOException, InterruptedException {
        List<Double> first = new ArrayList<>();
        List<Double> tenth = new ArrayList<>();
        List<Double> added = new ArrayList<>();
        for (int i = 0; i <= LATE_RUNS; i++) { // run 0 warms the page cache and is not counted
            Path journal = settings.work().resolve("late-call-journal-" + i);
            try {
                ChildLine line = guarded(List.of(java.toString(), "-javaagent:" + settings.agentJar(),
                        "-Deffectful.journal.dir=" + journal, "-cp", System.getProperty("java.class.path"),
                        FirstCallProbe.class.getName(), "late", Long.toString(LATE_DELAY_MS)), "LATE ");
                double a = Long.parseLong(line.field("first_us")) / 1000.0;
                double b = Long.parseLong(line.field("tenth_us")) / 1000.0;
                if (i > 0) {
                    first.add(a);
                    tenth.add(b);
                    added.add(a - b);
                }
            } finally {
                Dirs.delete(journal);
            }
        }
        Map<String, Double> out = medians(List.of("late_first_ms", "late_tenth_ms", "late_added_ms"), first, tenth, added);
        System.out.printf("== first call %d ms after main (%s): first %.2f ms, tenth %.2f ms, added %.2f ms (median of %d: %s)%n",
                LATE_DELAY_MS, label, out.get("late_first_ms"), out.get("late_tenth_ms"), out.get("late_added_ms"),
                LATE_RUNS, added);
        return out;
    }

    /** Each name with the median of its list, in order. */
    @SafeVarargs
    private static Map<String, Double> medians(List<String> names, List<Double>... samples) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            out.put(names.get(i), Startup.median(samples[i]));
        }
        return out;
    }

    /** {main to served ms, main's start after the JVM's ms}. */
    private double[] probe(Path journal) throws IOException, InterruptedException {
        ChildLine found = guarded(List.of(Settings.java17().toString(), "-javaagent:" + settings.agentJar(),
                "-Deffectful.journal.dir=" + journal, "-cp", System.getProperty("java.class.path"),
                FirstCallProbe.class.getName()), "FIRST ");
        return new double[] {Long.parseLong(found.field("main_to_served_us")) / 1000.0,
                Double.parseDouble(found.field("main_at_ms"))};
    }

    /** Runs the probe; its line that starts with {@code prefix}, which must say the call was guarded. */
    private static ChildLine guarded(List<String> cmd, String prefix) throws IOException, InterruptedException {
        ChildLine found = ChildLine.run(cmd, prefix);
        if (found.line() == null || !found.line().contains("answer=guarded")) {
            throw new IOException("the first-call probe was not served a guarded call: " + cmd + "\n"
                    + (found.line() == null ? "" : found.line() + "\n") + found.output());
        }
        return found;
    }
}

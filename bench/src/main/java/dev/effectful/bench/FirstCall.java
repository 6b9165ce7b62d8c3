package dev.effectful.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("empty_journal_ms", Startup.median(fresh));
        out.put("restart_ms", Startup.median(restart));
        out.put("main_at_ms", Startup.median(mainAt));
        out.put("runs", (double) runs);
        System.out.printf("== first call: main to served %.1f ms on an empty journal %s, %.1f ms on a restart %s"
                + " (medians of %d; main began %.0f ms after JVM start)%n", out.get("empty_journal_ms"), fresh,
                out.get("restart_ms"), restart, runs, out.get("main_at_ms"));
        return out;
    }

    /** {main to served ms, main's start after the JVM's ms}. */
    private double[] probe(Path journal) throws IOException, InterruptedException {
        List<String> cmd = List.of(Settings.java17().toString(), "-javaagent:" + settings.agentJar(),
                "-Deffectful.journal.dir=" + journal, "-cp", System.getProperty("java.class.path"),
                FirstCallProbe.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String found = null;
        StringBuilder seen = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String l;
            while ((l = r.readLine()) != null) {
                seen.append(l).append('\n');
                if (l.startsWith("FIRST ")) {
                    found = l;
                }
            }
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        if (found == null || !found.contains("answer=guarded")) {
            throw new IOException("the first-call probe was not served a guarded call: " + cmd + "\n" + seen);
        }
        return new double[] {Long.parseLong(field(found, "main_to_served_us")) / 1000.0,
                Double.parseDouble(field(found, "main_at_ms"))};
    }

    private static String field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new IllegalArgumentException(name + " not in " + line);
    }
}

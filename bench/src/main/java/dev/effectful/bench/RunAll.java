package dev.effectful.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of bench/run.sh: per-call comparators (JMH), start-up, recovery and disk, then
 * results.json, results.md and the table on stdout.
 *
 * <pre>java [chronicle flags] -jar bench/target/benchmarks.jar --agent A --annotations J --out DIR
 *      [--jdk25 HOME] [--quick] [--no-profile] [--only per_call,startup,first_call,recovery,fleet,profile,scale]</pre>
 */
public final class RunAll {

    private RunAll() {
    }

    public static void main(String[] args) throws Exception {
        Settings s = parse(args);
        Files.createDirectories(s.work());
        long t0 = System.nanoTime();
        Report report = new Report(s);
        report.loadAtStart = loadAverage();
        try (PerCall perCall = new PerCall(s)) {
            if (s.wants("per_call")) {
                report.perCall = perCall.runAll();
                report.perCallSkipped = perCall.skipped;
                report.postgresStatements = perCall.statements;
            }
            if (s.wants("startup")) {
                report.startup = new Startup(s).run();
            }
            if (s.wants("first_call")) {
                report.firstCall = new FirstCall(s).run();
            }
            if (s.wants("recovery")) {
                report.recovery = new Recovery(s).run();
            }
            if (s.wants("fleet")) {
                report.fleet = new Fleet(s).run();
            }
            if (s.parts().contains("scale")) { // long (a 10,000,000-attempt journal): only when named
                report.scale = new Scale(s, Scale.sizes(System.getProperty("bench.scale.sizes"))).run();
            }
            if (s.profile() && s.wants("profile")) {
                report.profile = new Profile(s).run(perCall);
            }
        } finally {
            Dirs.delete(s.work());
        }
        report.elapsedSeconds = (System.nanoTime() - t0) / 1e9;
        report.loadAtEnd = loadAverage();
        report.write();
    }

    /** The 1, 5 and 15 minute load averages: benchmarks on a busy machine say little, and this says how busy. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static Settings parse(String[] args) {
        boolean quick = false;
        boolean profile = true;
        Path agent = null;
        Path annotations = null;
        Path jdk25 = null;
        Path out = Path.of("bench/target");
        List<String> parts = new ArrayList<>();
        List<String> comparators = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--no-profile" -> profile = false;
                case "--agent" -> agent = Path.of(args[++i]).toAbsolutePath();
                case "--annotations" -> annotations = Path.of(args[++i]).toAbsolutePath();
                case "--jdk25" -> jdk25 = args[++i].isBlank() ? null : Path.of(args[i]);
                case "--out" -> out = Path.of(args[++i]).toAbsolutePath();
                case "--only" -> parts.addAll(List.of(args[++i].split(",")));
                case "--comparators" -> comparators.addAll(List.of(args[++i].split(",")));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (agent == null || !Files.isRegularFile(agent)) {
            throw new IllegalArgumentException("--agent must name the built effectful-agent.jar, was " + agent);
        }
        if (annotations == null || !Files.isRegularFile(annotations)) {
            throw new IllegalArgumentException("--annotations must name the built effectful-annotations jar");
        }
        return new Settings(quick, profile, agent, annotations, jdk25, out, parts, comparators);
    }

    /** Collected numbers; null parts were not run. */
    static final class Report {
        final Settings settings;
        Map<String, Map<Integer, PerCall.Sample>> perCall;
        /** Comparators that could not run here, with why (no PostgreSQL installed). */
        Map<String, String> perCallSkipped = Map.of();
        /** pg_stat_statements of each PostgreSQL fork: what a guarded call costs in statements. */
        Map<String, List<String>> postgresStatements = Map.of();
        Map<String, Map<String, Double>> startup;
        Recovery.Result recovery;
        Map<String, Double> firstCall;
        Map<String, Profile.Hotspots> profile;
        /** Fleet runs: N host JVMs x T threads on one PostgreSQL, beside the local journal. */
        List<Fleet.Run> fleet;
        /** The journal as it grows ({@code --only scale}). */
        List<Scale.Point> scale;
        double elapsedSeconds;
        String loadAtStart;
        String loadAtEnd;

        Report(Settings settings) {
            this.settings = settings;
        }

        void write() throws java.io.IOException {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("mode", settings.quick() ? "quick" : "full");
            json.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(),
                    "jdk", System.getProperty("java.version"), "os", System.getProperty("os.name"),
                    "load_average_at_start", loadAtStart, "load_average_at_end", loadAtEnd));
            json.put("elapsed_s", round(elapsedSeconds));
            if (perCall != null) {
                Map<String, Object> pc = new LinkedHashMap<>();
                perCall.forEach((name, byThreads) -> {
                    Map<String, Object> m = new LinkedHashMap<>(sample(byThreads.get(1)));
                    m.put("threads_2", sample(byThreads.get(2)));
                    pc.put(name, m);
                });
                json.put("per_call", pc);
                if (!perCallSkipped.isEmpty()) {
                    json.put("per_call_skipped", perCallSkipped);
                }
                if (!postgresStatements.isEmpty()) {
                    json.put("postgres_statements", postgresStatements);
                }
            }
            if (startup != null) {
                json.put("startup_ms", startup);
            }
            if (scale != null) {
                List<Map<String, Object>> points = new ArrayList<>();
                for (Scale.Point p : scale) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("attempts", p.attempts());
                    m.put("records", p.records());
                    p.times().forEach((k, v) -> m.put(k.replace(' ', '_').replace(",", "") + "_s", round(v)));
                    m.put("heap_bytes_per_key", round(p.heapBytesPerKey()));
                    m.put("disk_bytes_per_attempt", round(p.diskBytesPerAttempt()));
                    points.add(m);
                }
                json.put("scale", points);
            }
            if (firstCall != null) {
                json.put("first_call_ms", firstCall);
            }
            if (recovery != null) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("records", Recovery.ATTEMPTS);
                r.put("journal_records", recovery.records());
                r.put("seconds_to_first_call", round(recovery.secondsToFirstCall()));
                r.put("seconds_to_first_call_without_snapshot", round(recovery.coldSecondsToFirstCall()));
                r.put("snapshot_bytes_per_key", round(recovery.snapshotBytesPerKey()));
                r.put("ms_from_jvm_start_to_first_call", recovery.msSinceJvmStart());
                r.put("heap_bytes_per_key", round(recovery.heapBytesPerKey()));
                r.put("live_heap_histogram", recovery.histogram());
                json.put("recovery", r);
                json.put("disk_bytes_per_attempt", round(recovery.diskBytesPerAttempt()));
                json.put("disk_allocated_bytes_per_attempt", round(recovery.diskAllocatedBytesPerAttempt()));
            }
            if (fleet != null) {
                json.put("fleet", Fleet.json(fleet));
            }
            List<Targets.Check> checks = Targets.evaluate(this);
            json.put("targets", checks);
            if (profile != null) {
                json.put("profile", profile);
            }
            Path jsonFile = settings.out().resolve("results.json");
            new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                    .writeValue(jsonFile.toFile(), json);
            String md = Markdown.render(this, checks);
            Files.writeString(settings.out().resolve("results.md"), md);
            System.out.println();
            System.out.println(md);
            System.out.println("written: " + jsonFile + " and " + settings.out().resolve("results.md"));
        }

        private static Map<String, Object> sample(PerCall.Sample s) {
            Map<String, Object> m = new LinkedHashMap<>();
            if (s != null) {
                m.put("median_ns", round(s.medianNs()));
                m.put("p99_ns", round(s.p99Ns()));
                m.put("samples", s.samples());
            }
            return m;
        }

        static double round(double v) {
            return Math.round(v * 100.0) / 100.0;
        }
    }
}

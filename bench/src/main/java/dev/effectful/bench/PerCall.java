package dev.effectful.bench;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Per-call cost, JMH SampleTime, one and two threads. Each (comparator, threads) pair is its own
 * JMH run with one fork, because forks with the agent need their own journal directory (and, with
 * the PostgreSQL store, their own database) and forks without it must not have the agent at all.
 */
final class PerCall implements AutoCloseable {

    /** Where a fork with the agent keeps its intents: its journal's index, or a PostgreSQL server of ours. */
    enum Store {
        LOCAL, POSTGRES, POSTGRES_NOFSYNC;

        boolean postgres() {
            return this != LOCAL;
        }
    }

    /** One comparator: a benchmark method and whether (and how) its fork runs the agent. */
    record Comparator(String name, String benchmark, boolean agent, String sync, Store store) {
        Comparator(String name, String benchmark, boolean agent, String sync) {
            this(name, benchmark, agent, sync, Store.LOCAL);
        }
    }

    /** Median and p99 in nanoseconds, and how many samples they come from. */
    record Sample(double medianNs, double p99Ns, long samples) {
    }

    static List<Comparator> comparators() {
        String base = BaselineBench.class.getName() + ".";
        String eff = EffectfulBench.class.getName() + ".";
        return List.of(
                new Comparator("plain", base + "plain", false, null),
                new Comparator("resilience4j_retry", base + "resilience4jRetry", false, null),
                new Comparator("jsonl_file", base + "jsonlFile", false, null),
                new Comparator("h2_jdbc", base + "h2Jdbc", false, null),
                new Comparator("chronicle_floor", base + "chronicleFloor", false, null),
                new Comparator("chronicle_msync", base + "chronicleMsync", false, null),
                new Comparator("effectful", eff + "newIntent", true, "none"),
                new Comparator("effectful_sync", eff + "newIntent", true, "intent"),
                new Comparator("effectful_dedup", eff + "dedup", true, "none"),
                new Comparator("effectful_read", eff + "read", true, "none"),
                // the same new intent in an application with the OpenTelemetry SDK: a sampled span and meters per call
                new Comparator("effectful_otel", OtelBench.class.getName() + ".newIntent", true, "none"),
                // the same new intent, decided in PostgreSQL on loopback: the server's default
                // durability (fsync on) for the headline, and fsync off to show what the disk costs
                new Comparator("effectful_postgres", eff + "newIntent", true, "none", Store.POSTGRES),
                new Comparator("effectful_postgres_nofsync", eff + "newIntent", true, "none", Store.POSTGRES_NOFSYNC));
    }

    private final Settings settings;
    private int forkNumber;
    /** One server per kind of store, started on first use and stopped by {@link #close()}. */
    private final Map<Store, PgServer> servers = new java.util.EnumMap<>(Store.class);
    /** Comparators not run, with why (PostgreSQL not installed). */
    final Map<String, String> skipped = new LinkedHashMap<>();
    /** What each PostgreSQL fork ran, per statement (pg_stat_statements), keyed "name threads=N". */
    final Map<String, List<String>> statements = new LinkedHashMap<>();

    PerCall(Settings settings) {
        this.settings = settings;
    }

    /** name -> threads -> sample. */
    Map<String, Map<Integer, Sample>> runAll() throws RunnerException, IOException {
        Map<String, Map<Integer, Sample>> out = new LinkedHashMap<>();
        for (Comparator c : comparators()) {
            if (!settings.wantsComparator(c.name())) {
                continue;
            }
            if (c.store().postgres() && PgServer.unavailable().isPresent()) {
                String why = PgServer.unavailable().get();
                skipped.put(c.name(), why);
                System.out.println("== " + c.name() + " skipped: " + why);
                continue;
            }
            for (int threads : new int[] {1, 2}) {
                Sample s = run(c, threads, List.of());
                out.computeIfAbsent(c.name(), k -> new LinkedHashMap<>()).put(threads, s);
                System.out.printf("== %-20s threads=%d median=%.0f ns p99=%.0f ns (%d samples)%n", c.name(), threads,
                        s.medianNs(), s.p99Ns(), s.samples());
            }
        }
        return out;
    }

    Sample run(Comparator c, int threads, List<String> extraJvmArgs) throws RunnerException, IOException {
        return run(c, threads, extraJvmArgs, false);
    }

    /** @param profiling measure longer whatever the mode, so a sampling profiler gets enough samples */
    Sample run(Comparator c, int threads, List<String> extraJvmArgs, boolean profiling)
            throws RunnerException, IOException {
        Path forkDir = settings.work().resolve("fork-" + (++forkNumber) + "-" + c.name() + "-t" + threads);
        Files.createDirectories(forkDir);
        List<String> jvm = new ArrayList<>(List.of("-Xms1g", "-Xmx6g", "-Dbench.work=" + forkDir));
        String db = null;
        PgServer pg = null;
        if (c.store().postgres()) {
            pg = server(c.store());
            db = "fork_" + forkNumber;
            pg.createDatabase(db);
            // as a user would select the store: agent arguments (one database per fork)
            jvm.add("-javaagent:" + settings.agentJar() + "=store=postgres,store.url=" + pg.url(db) + ",store.user="
                    + PgServer.USER + ",store.password=" + PgServer.PASSWORD);
            jvm.add("-Deffectful.journal.dir=" + forkDir.resolve("journal"));
            jvm.add("-Deffectful.sync=" + c.sync());
        } else if (c.agent()) {
            jvm.add("-javaagent:" + settings.agentJar());
            jvm.add("-Deffectful.journal.dir=" + forkDir.resolve("journal"));
            jvm.add("-Deffectful.sync=" + c.sync());
        } else {
            jvm.addAll(Settings.CHRONICLE_FLAGS);
        }
        jvm.addAll(extraJvmArgs);
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include("^" + java.util.regex.Pattern.quote(c.benchmark()) + "$")
                .mode(Mode.SampleTime)
                .timeUnit(TimeUnit.NANOSECONDS)
                .forks(1)
                .threads(threads)
                .jvmArgs(jvm.toArray(String[]::new))
                .shouldFailOnError(true)
                .verbosity(org.openjdk.jmh.runner.options.VerboseMode.SILENT);
        if (profiling) {
            b.warmupIterations(2).warmupTime(TimeValue.seconds(1)).measurementIterations(4)
                    .measurementTime(TimeValue.seconds(2));
        } else if (settings.quick()) {
            b.warmupIterations(2).warmupTime(TimeValue.seconds(1)).measurementIterations(3)
                    .measurementTime(TimeValue.seconds(1));
        } else {
            b.warmupIterations(3).warmupTime(TimeValue.seconds(2)).measurementIterations(5)
                    .measurementTime(TimeValue.seconds(3));
        }
        try {
            Collection<RunResult> results = new Runner(b.build()).run();
            if (results.isEmpty()) {
                throw new IllegalStateException("JMH produced no result for " + c.name() + " (threads " + threads + ")");
            }
            Statistics st = results.iterator().next().getPrimaryResult().getStatistics();
            if (pg != null && !profiling) {
                List<String> lines = pg.statementsReport(db).lines().toList();
                statements.put(c.name() + " threads=" + threads, lines);
                System.out.println("== " + c.name() + " threads=" + threads
                        + ": statements run in its database (intents | calls | mean ms | statement)");
                lines.forEach(l -> System.out.println("   " + l));
            }
            return new Sample(st.getPercentile(50), st.getPercentile(99), st.getN());
        } finally {
            Dirs.delete(forkDir);
            if (pg != null) {
                pg.dropDatabase(db);
            }
        }
    }

    private PgServer server(Store store) throws IOException {
        PgServer pg = servers.get(store);
        if (pg == null) {
            pg = PgServer.start(store == Store.POSTGRES);
            servers.put(store, pg);
        }
        return pg;
    }

    /** Stops the PostgreSQL servers this run started and deletes their directories. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (PgServer pg : servers.values()) {
            try {
                pg.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        servers.clear();
        if (first != null) {
            throw first;
        }
    }
}

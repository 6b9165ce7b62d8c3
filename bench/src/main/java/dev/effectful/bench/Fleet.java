package dev.effectful.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fleet bench ({@code --only fleet}): N host JVMs, each with the real agent jar and its own
 * journal, T threads each making new MONEY intents (a trivial body), all deciding in one PostgreSQL
 * server of the run's own (fsync on, its defaults). Throughput in new intents per second over a
 * window opened on every host at once, p50/p99 of single calls; beside it the same hosts with the
 * local journal, and the published figures of other systems. After each PostgreSQL run every
 * thread of every host walks the same ids in one fleet-wide task: each id must be charged once.
 */
final class Fleet {

    /** One configuration's numbers. */
    record Run(String store, int hosts, int threads, double intentsPerSecond, double p50Ns, double p99Ns, long calls,
               long errors, String server, long sharedBodies, long sharedIds, long sharedErrors) {
    }

    /** Published figures of other systems, quoted as their publishers give them (not measured here). */
    static final List<String> ANCHORS = List.of(
            "DBOS: 43K workflows/s on one 96-vCPU PostgreSQL server (144K writes/s), published",
            "Temporal Cloud: minimum workflow latency about 100 ms, published",
            "Restate: about 50 ms for a 3-step handler with an fsync per step, published");

    private static final int SHARED_IDS = 600;

    private final Settings settings;
    private int number;

    Fleet(Settings settings) {
        this.settings = settings;
    }

    List<Run> run() throws Exception {
        long windowMillis = settings.quick() ? 4_000 : 10_000;
        List<Run> out = new ArrayList<>();
        // the local journal first: what one host does with no shared store
        out.add(measure(null, 1, 1, windowMillis));
        out.add(measure(null, 1, 4, windowMillis));
        if (PgServer.unavailable().isPresent()) {
            System.out.println("== fleet on PostgreSQL skipped: " + PgServer.unavailable().get());
            return out;
        }
        try (PgServer pg = PgServer.start(true)) {
            int[][] shapes = {{1, 1}, {1, 4}, {2, 4}, {3, 4}};
            for (int[] s : shapes) {
                out.add(measure(pg, s[0], s[1], windowMillis));
            }
        }
        return out;
    }

    private Run measure(PgServer pg, int hosts, int threads, long windowMillis) throws Exception {
        int n = ++number;
        String store = pg == null ? "local" : "postgres";
        String db = "fleet_" + n;
        Path work = settings.work().resolve("fleet-" + n);
        Files.createDirectories(work);
        if (pg != null) {
            pg.createDatabase(db);
        }
        List<Process> procs = new ArrayList<>();
        try {
            List<BufferedReader> outs = new ArrayList<>();
            List<Writer> ins = new ArrayList<>();
            for (int h = 0; h < hosts; h++) {
                Process p = startHost(pg, db, work, h, threads);
                procs.add(p);
                outs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
                ins.add(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8));
            }
            // each host warms up until its JIT is quiet (FleetHost); the window opens when the last one is
            long warmedMillis = 0;
            for (int h = 0; h < hosts; h++) {
                String[] ready = expect(outs.get(h), "READY", work, h).split(" ");
                warmedMillis = Math.max(warmedMillis, Long.parseLong(ready[2]));
            }
            String loadBefore = RunAll.loadAverage();
            tellAll(ins, "GO " + windowMillis);
            long calls = 0;
            long errors = 0;
            List<long[]> lats = new ArrayList<>();
            for (int h = 0; h < hosts; h++) {
                String[] f = expect(outs.get(h), "RESULT", work, h).split(" ");
                calls += Long.parseLong(f[1]);
                errors += Long.parseLong(f[2]);
                lats.add(readLongs(work.resolve("lat-" + h)));
            }
            String server = pg == null ? "" : pg.statementsReport(db).lines().findFirst().orElse("");
            long bodies = 0;
            long sharedErrors = 0;
            if (pg != null) {
                tellAll(ins, "SHARED");
                for (int h = 0; h < hosts; h++) {
                    String[] f = expect(outs.get(h), "SHARED", work, h).split(" ");
                    bodies += Long.parseLong(f[1]);
                    sharedErrors += Long.parseLong(f[2]);
                }
            } else {
                tellAll(ins, "DONE");
            }
            long[] all = lats.stream().flatMapToLong(Arrays::stream).sorted().toArray();
            double p50 = all.length == 0 ? Double.NaN : all[all.length / 2];
            double p99 = all.length == 0 ? Double.NaN : all[Math.min(all.length - 1, (int) (all.length * 0.99))];
            Run r = new Run(store, hosts, threads, calls * 1000.0 / windowMillis, p50, p99, calls, errors, server,
                    bodies, pg == null ? 0 : SHARED_IDS, sharedErrors);
            System.out.printf("== fleet %-8s %d host(s) x %d thread(s): %,.0f new intents/s, p50 %.3f ms, p99 %.3f ms"
                            + " (%d calls, %d errors; load %s; warmed up %.1f s)%s%s%n", store, hosts, threads,
                    r.intentsPerSecond(), p50 / 1e6, p99 / 1e6, calls, errors, loadBefore, warmedMillis / 1000.0,
                    server.isEmpty() ? "" : "; " + server,
                    pg == null ? "" : String.format("; shared walk: %d bodies for %d ids (%d errors)", bodies,
                            SHARED_IDS, sharedErrors));
            for (Process p : procs) {
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("a fleet host did not exit; see " + work);
                }
            }
            return r;
        } finally {
            for (Process p : procs) {
                p.destroyForcibly();
            }
            if (pg != null) {
                pg.dropDatabase(db);
            }
            Dirs.delete(work);
        }
    }

    /** One fleet host: a JVM with the agent (on the store when there is one) running {@link FleetHost}. */
    private Process startHost(PgServer pg, String db, Path work, int h, int threads) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Settings.java17().toString(), "-Xms256m", "-Xmx512m"));
        String agent = "-javaagent:" + settings.agentJar();
        if (pg != null) {
            agent += "=store=postgres,store.url=" + pg.url(db) + ",store.user=" + PgServer.USER
                    + ",store.password=" + PgServer.PASSWORD;
        }
        cmd.add(agent);
        cmd.add("-Deffectful.journal.dir=" + work.resolve("journal-" + h));
        cmd.add("-Deffectful.sync=none");
        cmd.addAll(List.of("-cp", benchmarksJar().toString(), FleetHost.class.getName(), "h" + h,
                Integer.toString(threads), Integer.toString(SHARED_IDS), work.resolve("lat-" + h).toString()));
        return new ProcessBuilder(cmd).redirectError(work.resolve("host-" + h + ".err").toFile())
                .directory(work.toFile()).start();
    }

    /** A line of the hosts' protocol, to every host. */
    private static void tellAll(List<Writer> ins, String line) throws IOException {
        for (Writer w : ins) {
            w.write(line + "\n");
            w.flush();
        }
    }

    private static String expect(BufferedReader r, String word, Path work, int host) throws IOException {
        String line;
        while ((line = r.readLine()) != null) {
            if (line.startsWith(word)) {
                return line;
            }
        }
        Path err = work.resolve("host-" + host + ".err");
        throw new IllegalStateException("fleet host " + host + " ended before " + word + ":\n"
                + (Files.exists(err) ? Files.readString(err) : ""));
    }

    private static long[] readLongs(Path p) throws IOException {
        byte[] b = Files.readAllBytes(p);
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b);
        long[] out = new long[b.length / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = bb.getLong();
        }
        return out;
    }

    private static Path benchmarksJar() {
        try {
            return Path.of(Fleet.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** results.json's {@code fleet} section. */
    static Map<String, Object> json(List<Run> runs) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Run r : runs) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("store", r.store());
            row.put("hosts", r.hosts());
            row.put("threads_per_host", r.threads());
            row.put("new_intents_per_s", Math.round(r.intentsPerSecond()));
            row.put("p50_ns", Math.round(r.p50Ns()));
            row.put("p99_ns", Math.round(r.p99Ns()));
            row.put("calls", r.calls());
            row.put("errors", r.errors());
            if (!r.server().isEmpty()) {
                row.put("server", r.server());
                row.put("shared_walk", r.sharedBodies() + " bodies for " + r.sharedIds() + " ids (" + r.sharedErrors()
                        + " errors)");
            }
            rows.add(row);
        }
        m.put("runs", rows);
        m.put("published_anchors", ANCHORS);
        return m;
    }

    static String markdown(List<Run> runs) {
        StringBuilder b = new StringBuilder("## Fleet: N host JVMs x T threads, new MONEY intents\n\n"
                + "| store | hosts x threads | new intents/s | p50 | p99 | server per intent | shared walk |\n"
                + "|---|---|---:|---:|---:|---|---|\n");
        for (Run r : runs) {
            b.append(String.format("| %s | %d x %d | %,.0f | %.3f ms | %.3f ms | %s | %s |%n", r.store(), r.hosts(),
                    r.threads(), r.intentsPerSecond(), r.p50Ns() / 1e6, r.p99Ns() / 1e6,
                    r.server().replace("per intent: ", ""),
                    r.store().equals("local") ? "–" : r.sharedBodies() + " bodies / " + r.sharedIds() + " ids"
                            + (r.sharedErrors() > 0 ? ", " + r.sharedErrors() + " errors" : "")));
        }
        b.append("\nPublished anchors (not measured here):\n\n");
        ANCHORS.forEach(a -> b.append("- ").append(a).append('\n'));
        return b.append('\n').toString();
    }
}

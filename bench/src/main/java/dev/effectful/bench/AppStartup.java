package dev.effectful.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Start-up of a real web application (a Spring Boot fat jar: PetClinic, a LangChain4j or Spring AI service)
 * with and without the agent: wall time from launch to the first HTTP answer on loopback, and the CPU the
 * process had used by then (all its threads, from {@code /proc/PID/stat}). Runs alternate without/with
 * (ABAB) after one uncounted pair, so a load that changes during the run weighs on both sides; the agent's
 * cost is the median of the paired differences. With {@code --profile}, one more start with the agent runs
 * under JFR and the agent's share of the samples is split by where it goes (the class-load hook, type
 * matching, weaving, the lambda hook, premain, the engine's start).
 *
 * <pre>
 * bench/app-startup.sh --app APP.jar|UNPACKED_DIR [--name petclinic] [--path /] [--runs 5] [--profile]
 * </pre>
 * The application jar is the user's: this harness builds nothing, it only starts what it is given.
 */
public final class AppStartup {

    /** Linux's USER_HZ: {@code /proc/PID/stat} counts CPU time in these ticks. */
    private static final double TICK_MS = 10.0;
    private static final long READY_LIMIT_S = 240;

    private final Path app;
    private final String name;
    private final String path;
    private final int runs;
    private final Path agent;
    private final Path out;
    private final List<String> appArgs;
    /** JVM flags of the runs with the agent only (another agent's settings, when comparing with it). */
    private final List<String> withFlags;

    private AppStartup(Path app, String name, String path, int runs, Path agent, Path out, List<String> appArgs,
                       List<String> withFlags) {
        this.app = app;
        this.name = name;
        this.path = path;
        this.runs = runs;
        this.agent = agent;
        this.out = out;
        this.appArgs = appArgs;
        this.withFlags = withFlags;
    }

    /** One start: wall ms to the first HTTP answer, the process's CPU ms at that moment, and per thread group. */
    record Start(double wallMs, double cpuMs, Map<String, Double> threads) {
    }

    /** Medians of one JDK's runs and of the paired differences. */
    record Figures(String jdk, int pairs, double wallWithout, double wallWith, double wallAdded, double cpuWithout,
                   double cpuWith, double cpuAdded) {

        double cpuAddedPct() {
            return 100.0 * cpuAdded / cpuWithout;
        }
    }

    public static void main(String[] args) throws Exception {
        Path app = null;
        String name = null;
        String path = "/";
        int runs = 5;
        boolean profile = false;
        Path agent = Path.of("agent/target/effectful-agent.jar");
        Path out = Path.of("bench/target/app-startup");
        Path jdk25 = Path.of(System.getenv().getOrDefault("EFFECTFUL_JDK25_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"));
        List<String> appArgs = new ArrayList<>();
        List<String> withFlags = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--app" -> app = Path.of(args[++i]);
                case "--name" -> name = args[++i];
                case "--path" -> path = args[++i];
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--agent" -> agent = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--jdk25" -> jdk25 = args[++i].isEmpty() ? null : Path.of(args[i]);
                case "--with-flag" -> withFlags.add(args[++i]);
                case "--profile" -> profile = true;
                case "--profile-only" -> {
                    profile = true;
                    runs = 0;
                }
                case "--" -> {
                    appArgs.addAll(List.of(args).subList(i + 1, args.length));
                    i = args.length;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: --app JAR [--name N] [--path /] [--runs 5] [--agent JAR] [--out DIR] [--jdk25 HOME]"
                        + " [--with-flag FLAG]... [--profile | --profile-only] [-- APP ARGS]");
            }
        }
        if (app == null || !Files.exists(app)) {
            throw new IllegalArgumentException("--app must name the application's jar, or the directory a Spring Boot"
                    + " jar was unpacked into (given: " + app + ")");
        }
        if (!Files.isRegularFile(agent)) {
            throw new IllegalArgumentException("no agent jar at " + agent + "; build it first (mvn -pl agent -am package)");
        }
        if (name == null) {
            name = app.getFileName().toString().replaceAll("\\.jar$", "");
        }
        Files.createDirectories(out);
        AppStartup bench = new AppStartup(app.toAbsolutePath(), name, path, runs, agent.toAbsolutePath(),
                out.toAbsolutePath(), appArgs, withFlags);
        List<Figures> all = new ArrayList<>();
        if (runs > 0) {
            all.add(bench.measure("jdk17", Settings.java17(), List.of()));
        }
        if (runs > 0 && jdk25 != null && Files.isExecutable(jdk25.resolve("bin/java"))) {
            all.add(bench.measure("jdk25", jdk25.resolve("bin/java"),
                    List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow")));
        } else if (runs > 0) {
            System.out.println("== " + name + ": no JDK 25 at " + jdk25 + "; skipped");
        }
        Map<String, Double> where = profile ? bench.profile(Settings.java17()) : Map.of();
        bench.report(all, where);
    }

    private Figures measure(String jdk, Path javaBin, List<String> jdkFlags) throws IOException, InterruptedException {
        List<Double> wallA = new ArrayList<>();
        List<Double> wallB = new ArrayList<>();
        List<Double> wallD = new ArrayList<>();
        List<Double> cpuA = new ArrayList<>();
        List<Double> cpuB = new ArrayList<>();
        List<Double> cpuD = new ArrayList<>();
        Map<String, List<Double>> threadsAdded = new TreeMap<>();
        for (int i = 0; i <= runs; i++) { // pair 0 warms the page cache and is not counted
            Start a = start(javaBin, jdkFlags, false, List.of(), i, false);
            Start b = start(javaBin, jdkFlags, true, List.of(), i, false);
            System.out.printf("== %s %s pair %d: without %.0f ms wall / %.0f ms CPU, with %.0f / %.0f%s%n", name, jdk, i,
                    a.wallMs(), a.cpuMs(), b.wallMs(), b.cpuMs(), i == 0 ? " (warm-up, not counted)" : "");
            if (i > 0) {
                wallA.add(a.wallMs());
                wallB.add(b.wallMs());
                wallD.add(b.wallMs() - a.wallMs());
                cpuA.add(a.cpuMs());
                cpuB.add(b.cpuMs());
                cpuD.add(b.cpuMs() - a.cpuMs());
                java.util.Set<String> names = new java.util.TreeSet<>(a.threads().keySet());
                names.addAll(b.threads().keySet());
                for (String n : names) {
                    threadsAdded.computeIfAbsent(n, k -> new ArrayList<>())
                            .add(b.threads().getOrDefault(n, 0.0) - a.threads().getOrDefault(n, 0.0));
                }
            }
        }
        if (runs > 0) {
            System.out.println("== " + name + " " + jdk + ": CPU added per thread group (median of paired differences,"
                    + " groups that moved by 50 ms or more):");
            threadsAdded.forEach((n, d) -> {
                double m = Startup.median(d);
                if (Math.abs(m) >= 50) {
                    System.out.printf("     %-20s %+6.0f ms%n", n, m);
                }
            });
        }
        Figures f = new Figures(jdk, runs, Startup.median(wallA), Startup.median(wallB), Startup.median(wallD),
                Startup.median(cpuA), Startup.median(cpuB), Startup.median(cpuD));
        System.out.printf("== %s %s: wall %.0f -> %.0f ms (added %+.0f ms), CPU to ready %.0f -> %.0f ms (added %+.0f ms,"
                        + " %+.1f%%), medians of %d%n", name, jdk, f.wallWithout(), f.wallWith(), f.wallAdded(),
                f.cpuWithout(), f.cpuWith(), f.cpuAdded(), f.cpuAddedPct(), runs);
        return f;
    }

    private Start start(Path javaBin, List<String> jdkFlags, boolean withAgent, List<String> extra, int i,
                        boolean graceful) throws IOException, InterruptedException {
        Path journal = out.resolve("journal-" + i);
        Dirs.delete(journal);
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(javaBin.toString()));
        cmd.addAll(jdkFlags);
        cmd.addAll(extra);
        if (withAgent) {
            cmd.add("-javaagent:" + agent);
            cmd.add("-Deffectful.journal.dir=" + journal);
            cmd.addAll(withFlags);
        }
        if (Files.isDirectory(app)) {
            // a Spring Boot jar unpacked (as container images lay it out): its own launcher, from the directory
            cmd.addAll(List.of("-cp", app.toString(), "org.springframework.boot.loader.launch.JarLauncher"));
        } else {
            cmd.addAll(List.of("-jar", app.toString()));
        }
        cmd.addAll(List.of("--server.port=" + port, "--server.address=127.0.0.1"));
        cmd.addAll(appArgs);
        Path log = out.resolve(name + (withAgent ? "-with" : "-without") + ".log");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            URL url = new URL("http://127.0.0.1:" + port + path);
            long deadline = t0 + TimeUnit.SECONDS.toNanos(READY_LIMIT_S);
            while (true) {
                if (!p.isAlive()) {
                    throw new IOException("the application ended before it answered (exit " + p.exitValue() + "): " + cmd
                            + "; its output: " + log);
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("no HTTP answer within " + READY_LIMIT_S + " s: " + cmd + "; its output: " + log);
                }
                if (answers(url)) {
                    double wall = (System.nanoTime() - t0) / 1e6;
                    return new Start(wall, cpuMs(p.pid()), threadCpuMs(p.pid()));
                }
                Thread.sleep(10); // polling a port: the bound above ends it
            }
        } finally {
            if (graceful) {
                p.destroy(); // SIGTERM: the JVM's shutdown (a JFR recording is dumped then)
                p.waitFor(60, TimeUnit.SECONDS);
            }
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            Dirs.delete(journal);
        }
    }

    private static boolean answers(URL url) {
        try {
            HttpURLConnection c = (HttpURLConnection) url.openConnection();
            c.setConnectTimeout(200);
            c.setReadTimeout(30_000);
            int code = c.getResponseCode();
            c.disconnect();
            return code > 0;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** utime + stime of the process (all threads), from /proc. */
    private static double cpuMs(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields after the command: state is 3rd overall, utime the 14th and stime the 15th
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_MS;
    }

    /**
     * CPU ms per thread group at this moment, from {@code /proc/PID/task/*}/stat (names as Linux keeps
     * them, 15 characters; numbered pool threads folded into one group). Unlike JFR's samples this
     * counts the JIT compilers, the garbage collector and class loading in the VM too.
     */
    private static Map<String, Double> threadCpuMs(long pid) throws IOException {
        Map<String, Double> out = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException ended) {
                    continue; // the thread ended meanwhile
                }
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                double ms = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_MS;
                out.merge(comm.replaceAll("[0-9#-]+$", "").replaceAll("[0-9]+", "N").strip(), ms, Double::sum);
            }
        }
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * One start with the agent under JFR (execution samples every 10 ms of every thread): the share of
     * samples whose stack holds the agent, split by the outermost part of the agent on the stack.
     */
    private Map<String, Double> profile(Path javaBin) throws IOException, InterruptedException {
        Path jfr = out.resolve(name + "-with-agent.jfr");
        Files.deleteIfExists(jfr);
        start(javaBin, List.of(), true, List.of("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile,dumponexit=true"),
                99, true);
        return where(jfr);
    }

    /** The profile's buckets, in the order of a call's path through the agent. */
    static String bucket(List<RecordedFrame> frames) {
        String outer = null;
        for (int i = frames.size() - 1; i >= 0; i--) { // from the thread's root towards the top
            String cls = frames.get(i).getMethod().getType().getName();
            // the agent's own Byte Buddy runs below its frames; a Byte Buddy frame without one is the application's
            // (Hibernate makes its proxies with its own copy)
            if (cls.startsWith("dev.effectful.")) {
                outer = cls + "." + frames.get(i).getMethod().getName();
                String top = frames.get(0).getMethod().getType().getName();
                if (outer.contains("WeavingTransformer.transform")) {
                    for (RecordedFrame f : frames) {
                        String c = f.getMethod().getType().getName();
                        if (c.contains("AnnotationPrefilter")) {
                            return "class-load hook: annotation byte search";
                        }
                        if (c.contains("ToolSupertypes") || c.contains("ClassHeader")) {
                            return "class-load hook: supertype matching";
                        }
                        if (c.contains("Instrumentations") || c.contains("instrumentation.")) {
                            return "class-load hook: library instrumentations";
                        }
                        if (c.contains("ContextPropagation") || c.contains("ExecutorWeaver")) {
                            return "class-load hook: executors";
                        }
                        if (c.contains("FirstLoadWeaver") || c.startsWith("net.bytebuddy.")) {
                            return "class-load hook: weaving";
                        }
                    }
                    return "class-load hook: other (" + top + ")";
                }
                if (outer.contains("LoadingHooks") || outer.contains("LoadingGuards")) {
                    return "lambda and hidden-class hook";
                }
                if (outer.contains("EffectfulAgent") || outer.contains("AgentInstaller") || outer.contains("BootstrapInjector")) {
                    return "premain";
                }
                if (outer.contains("EngineStarter") || outer.contains("EngineFactory") || outer.contains("CallEngine")) {
                    return "engine start (journal, index)";
                }
                if (outer.contains("JsonWarmUp")) {
                    return "Jackson warm-up";
                }
                if (outer.contains("JdkHookInstall")) {
                    return "JDK hook install";
                }
                return "other agent code (" + outer + ")";
            }
        }
        return null;
    }

    private static Map<String, Double> where(Path jfr) throws IOException {
        if (!Files.exists(jfr)) {
            System.out.println("== profile: no recording was written at " + jfr);
            return Map.of();
        }
        Map<String, Integer> counts = new TreeMap<>();
        int total = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                continue;
            }
            total++;
            String b = bucket(e.getStackTrace().getFrames());
            if (b != null) {
                counts.merge(b, 1, Integer::sum);
            }
        }
        Map<String, Double> shares = new LinkedHashMap<>();
        int agentSamples = counts.values().stream().mapToInt(Integer::intValue).sum();
        shares.put("all samples", (double) total);
        shares.put("agent samples", (double) agentSamples);
        final int all = Math.max(total, 1);
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(en -> shares.put(en.getKey(), 100.0 * en.getValue() / all));
        return shares;
    }

    private void report(List<Figures> all, Map<String, Double> where) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("| application | JDK | first HTTP answer without | with | added (median of ").append(runs)
                .append(" paired differences) | CPU to ready without | with | added |\n|---|---|---|---|---|---|---|---|\n");
        for (Figures f : all) {
            md.append(String.format("| %s | %s | %.0f ms | %.0f ms | %+.0f ms | %.0f ms | %.0f ms | %+.0f ms (%+.1f%%) |%n",
                    name, f.jdk().replace("jdk", ""), f.wallWithout(), f.wallWith(), f.wallAdded(), f.cpuWithout(),
                    f.cpuWith(), f.cpuAdded(), f.cpuAddedPct()));
        }
        if (!where.isEmpty()) {
            md.append("\nWhere the agent's samples went (one start with the agent under JFR, JDK 17; share of all ")
                    .append(String.format("%.0f", where.get("all samples"))).append(" execution samples):\n\n")
                    .append("| part | share of all samples |\n|---|---|\n");
            where.forEach((k, v) -> {
                if (!k.endsWith("samples")) {
                    md.append(String.format("| %s | %.1f%% |%n", k, v));
                }
            });
        }
        Path file = out.resolve(name + ".md");
        Files.writeString(file, md.toString());
        StringBuilder json = new StringBuilder("{\"application\":\"" + name + "\",\"runs\":" + runs + ",\"jdks\":[");
        for (int i = 0; i < all.size(); i++) {
            Figures f = all.get(i);
            json.append(i == 0 ? "" : ",").append(String.format(java.util.Locale.ROOT,
                    "{\"jdk\":\"%s\",\"wall_without_ms\":%.1f,\"wall_with_ms\":%.1f,\"wall_added_ms\":%.1f,"
                            + "\"cpu_without_ms\":%.1f,\"cpu_with_ms\":%.1f,\"cpu_added_ms\":%.1f,\"cpu_added_pct\":%.2f}",
                    f.jdk(), f.wallWithout(), f.wallWith(), f.wallAdded(), f.cpuWithout(), f.cpuWith(), f.cpuAdded(),
                    f.cpuAddedPct()));
        }
        json.append("]}\n");
        Files.writeString(out.resolve(name + ".json"), json.toString());
        System.out.println(md);
        System.out.println("== written " + file + " and " + out.resolve(name + ".json"));
    }
}

package dev.effectful.agent.reliability;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The crash campaign: a ledger JVM that is never killed, and a workload JVM (agent attached) that is
 * killed with {@code kill -9} a seeded random time after it says READY, restarted on the same
 * journal, and killed again, until the kill budget is spent; then one last run without a kill lets
 * every task finish. When a round of tasks finishes before the budget is spent, the next round
 * starts, so every kill lands in real work. Judged by {@link Verdict}.
 *
 * <pre>java -cp TEST_AND_RUNTIME_CLASSPATH dev.effectful.agent.reliability.CrashCampaign
 *      --kills 500 --seed 42 --out reliability/target --agent agent/target/effectful-agent.jar</pre>
 */
public final class CrashCampaign {

    /** @param maxDelayMs a kill lands uniformly in [0, maxDelayMs] after the workload says READY */
    public record Options(long seed, int kills, int tasksPerRound, int maxDelayMs, Path workDir, Path agentJar,
                          String workloadClassPath, String javaHome) {
    }

    private final Options o;
    private final Path journal;
    private final Path logs;

    public CrashCampaign(Options o) {
        this.o = o;
        this.journal = o.workDir().resolve("journal");
        this.logs = o.workDir().resolve("logs");
    }

    public static void main(String[] args) throws Exception {
        long seed = System.currentTimeMillis() % 100_000;
        int kills = 500;
        int tasks = 12;
        int delay = 400;
        Path out = Path.of("reliability/target");
        Path agent = Path.of("agent/target/effectful-agent.jar");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--kills" -> kills = Integer.parseInt(args[i + 1]);
                case "--tasks" -> tasks = Integer.parseInt(args[i + 1]);
                case "--max-delay-ms" -> delay = Integer.parseInt(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--agent" -> agent = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path work = out.resolve("campaign");
        deleteTree(work);
        Verdict v = new CrashCampaign(new Options(seed, kills, tasks, delay, work, agent.toAbsolutePath(),
                testClasses(), System.getProperty("java.home"))).run(System.out);
        System.out.println(v.table());
        Files.writeString(out.resolve("results.json"), v.toJson());
        System.out.println("written " + out.resolve("results.json"));
        System.exit(v.passed() ? 0 : 1);
    }

    /** Where the workload's classes are: the test classes this class was loaded from. */
    public static String testClasses() {
        try {
            return Path.of(Workload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public Verdict run(Appendable progress) throws IOException, InterruptedException {
        Files.createDirectories(logs);
        Path portFile = o.workDir().resolve("ledger.port");
        Path dump = o.workDir().resolve("ledger.txt");
        Files.deleteIfExists(portFile);
        Process ledger = new ProcessBuilder(java(), "-Xmx128m",
                // without it the JDK server's header and body writes meet delayed ACKs: 40 ms a request,
                // so a run got through a step or two between kills and tasks hardly ever finished
                "-Dsun.net.httpserver.nodelay=true", "-cp", o.workloadClassPath(), LedgerProcess.class.getName(),
                portFile.toString(), dump.toString()).redirectErrorStream(true)
                .redirectOutput(logs.resolve("ledger.txt").toFile()).start();
        try {
            String url = "http://127.0.0.1:" + await(() -> Files.exists(portFile) ? Files.readString(portFile) : null,
                    Duration.ofSeconds(30), "ledger port");
            Random random = new Random(o.seed());
            List<String> started = new ArrayList<>();
            Set<String> pending = new LinkedHashSet<>();
            int round = 0;
            int kills = 0;
            int runs = 0;
            long t0 = System.nanoTime();
            // a file named stop-early in the work directory ends the kills at once (then the final run and the verdict)
            while (kills < o.kills() && !Files.exists(o.workDir().resolve("stop-early"))) {
                if (pending.isEmpty()) {
                    round++;
                    pending.addAll(Script.round(round, o.tasksPerRound()));
                    started.addAll(pending);
                }
                long delay = random.nextInt(o.maxDelayMs() + 1);
                // each run starts at a seeded random pending task, so kills spread over the whole
                // script even when a run is too short to finish a task
                List<String> order = new ArrayList<>(pending);
                java.util.Collections.rotate(order, -random.nextInt(order.size()));
                if (!ledger.isAlive()) {
                    throw new IllegalStateException("the ledger JVM died (exit " + ledger.exitValue() + ", killed from"
                            + " outside?): its counts are gone, the campaign cannot be judged");
                }
                Run r = start(url, order, runs++);
                r.awaitReady();
                boolean exited = r.process.waitFor(delay, TimeUnit.MILLISECONDS);
                if (!exited) {
                    kill9(r.process);
                    kills++;
                } else if (r.process.exitValue() != 0) {
                    throw new IllegalStateException("workload failed on its own (exit " + r.process.exitValue() + "):\n"
                            + r.output() + "\n" + Files.readString(r.err));
                }
                pending.removeAll(r.done());
                if (kills % 25 == 0 && !exited) {
                    progress.append(String.format("kills %d/%d, round %d, %d tasks pending, %.0f s%n", kills, o.kills(),
                            round, pending.size(), (System.nanoTime() - t0) / 1e9));
                }
            }
            if (!pending.isEmpty()) {
                Run last = start(url, pending, runs++);
                if (!last.process.waitFor(5, TimeUnit.MINUTES) || last.process.exitValue() != 0) {
                    last.process.destroyForcibly();
                    throw new IllegalStateException("final run did not finish:\n" + last.output() + "\n" + Files.readString(last.err));
                }
                pending.removeAll(last.done());
                if (!pending.isEmpty()) {
                    throw new IllegalStateException("final run left tasks " + pending);
                }
            }
            HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/stop"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            if (!ledger.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("ledger did not stop");
            }
            progress.append(String.format("campaign: %d kills, %d runs, %d rounds in %.0f s%n", kills, runs, round,
                    (System.nanoTime() - t0) / 1e9));
            return Verdict.judge(journal, dump, started, o.seed(), kills, runs);
        } finally {
            ledger.destroyForcibly();
        }
    }

    private String java() {
        return o.javaHome() + File.separator + "bin" + File.separator + "java";
    }

    private Run start(String url, java.util.Collection<String> tasks, int n) throws IOException {
        Path out = logs.resolve("workload.out");
        Path err = logs.resolve("workload.err");
        List<String> cmd = List.of(java(), "-javaagent:" + o.agentJar() + "=journal=" + journal + ",log.level=warn",
                "-Dledger=" + url, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", o.workloadClassPath(), Workload.class.getName(), String.join(",", tasks));
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new Run(p, out, err);
    }

    private record Run(Process process, Path out, Path err) {
        void awaitReady() throws IOException, InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < end) {
                String s = output();
                // the kill clock starts at the first finished step, not at READY: on a loaded machine
                // the first call can take longer than the whole kill window, and kills that land
                // before any call prove nothing (the first 150-kill run showed exactly that)
                if (s.contains("\nSTEP ") || s.contains("\nDONE ")) {
                    return;
                }
                if (!process.isAlive() && process.exitValue() == 0) {
                    return;
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException("workload died before READY:\n" + s + "\n" + Files.readString(err));
                }
                Thread.sleep(2);
            }
            throw new IllegalStateException("workload not READY within 60 s");
        }

        String output() throws IOException {
            return Files.readString(out, StandardCharsets.UTF_8);
        }

        List<String> done() throws IOException {
            return output().lines().filter(l -> l.startsWith("DONE ")).map(l -> l.substring(5).trim()).toList();
        }
    }

    /** A real {@code kill -9}: no shutdown hook, no flush, nothing the agent could tidy up. */
    private static void kill9(Process p) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", "-9", Long.toString(p.pid())).inheritIO().start();
        if (!k.waitFor(10, TimeUnit.SECONDS) || !p.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("kill -9 " + p.pid() + " did not end it");
        }
    }

    private interface Check<T> {
        T get() throws IOException;
    }

    private static <T> T await(Check<T> check, Duration limit, String what) throws IOException, InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            T v = check.get();
            if (v != null) {
                return v;
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("no " + what + " within " + limit);
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (var s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}

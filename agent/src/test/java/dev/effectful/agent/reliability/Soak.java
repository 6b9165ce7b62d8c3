package dev.effectful.agent.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak: a ledger JVM, and an application JVM ({@link SoakApp}, real agent attached) calling
 * effectful tools from two threads for a while with one journal cycle file per second and a short
 * retention; then the journal CLI lists what is unresolved and {@link SoakVerdict} judges.
 *
 * <pre>java -cp TEST_AND_RUNTIME_CLASSPATH dev.effectful.agent.reliability.Soak --seconds 600
 *      --out reliability/target --agent agent/target/effectful-agent.jar</pre>
 */
public final class Soak {

    /** @param retentionSeconds {@code effectful.retention}; task sessions last a third of it, so repeats stay inside it */
    public record Options(long seconds, long sampleSeconds, long retentionSeconds, long heldEveryMillis, Path workDir,
                          Path agentJar, String classPath, String javaHome) {
    }

    /** {@code effectful DEBUG: effectful retention PT10S: 12 keys forgotten, 3 cycle files deleted, ...; 345 intents remembered} */
    private static final Pattern SWEEP = Pattern.compile(
            "effectful retention \\S+: (\\d+) keys forgotten, (\\d+) cycle files deleted, .*; (\\d+) intents remembered");

    private final Options o;

    public Soak(Options o) {
        this.o = o;
    }

    public static void main(String[] args) throws Exception {
        long seconds = 600;
        long sample = 10;
        long retention = 10;
        Path out = Path.of("reliability/target");
        Path agent = Path.of("agent/target/effectful-agent.jar");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--minutes" -> seconds = Long.parseLong(args[i + 1]) * 60;
                case "--seconds" -> seconds = Long.parseLong(args[i + 1]);
                case "--sample-seconds" -> sample = Long.parseLong(args[i + 1]);
                case "--retention-seconds" -> retention = Long.parseLong(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--agent" -> agent = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path work = out.resolve("soak");
        CrashCampaign.deleteTree(work);
        long t0 = System.nanoTime();
        SoakVerdict v = new Soak(new Options(seconds, sample, retention, 20_000, work, agent.toAbsolutePath(),
                CrashCampaign.testClasses(), System.getProperty("java.home"))).run();
        System.out.println(v.table());
        System.out.printf("wall time %.0f s%n", (System.nanoTime() - t0) / 1e9);
        Files.writeString(out.resolve("soak.json"), v.toJson());
        System.out.println("written " + out.resolve("soak.json"));
        System.exit(v.passed() ? 0 : 1);
    }

    public SoakVerdict run() throws IOException, InterruptedException {
        Path logs = o.workDir().resolve("logs");
        Path journal = o.workDir().resolve("journal");
        Files.createDirectories(logs);
        Path portFile = o.workDir().resolve("ledger.port");
        Path dump = o.workDir().resolve("ledger.txt");
        // the ledger keeps every reference of the whole soak in memory: give it room
        Process ledger = new ProcessBuilder(java(), "-Xmx512m",
                // without it the JDK server's header and body writes meet delayed ACKs: 40 ms a call
                "-Dsun.net.httpserver.nodelay=true", "-cp", o.classPath(), LedgerProcess.class.getName(),
                portFile.toString(), dump.toString()).redirectErrorStream(true)
                .redirectOutput(logs.resolve("ledger.txt").toFile()).start();
        try {
            String url = "http://127.0.0.1:" + awaitFile(portFile, 30);
            Path out = logs.resolve("app.out");
            Path err = logs.resolve("app.err");
            List<String> cmd = List.of(java(), "-javaagent:" + o.agentJar() + "=journal=" + journal
                            + ",roll.cycle=secondly,retention=" + o.retentionSeconds() + "s,log.level=debug",
                    "-Dledger=" + url, "-Djournal.dir=" + journal, "-Dsoak.seconds=" + o.seconds(),
                    "-Dsample.seconds=" + o.sampleSeconds(), "-Dsession.millis=" + o.retentionSeconds() * 1000 / 3,
                    "-Dheld.every.millis=" + o.heldEveryMillis(), "-Xmx256m", "-XX:+UseSerialGC",
                    "-cp", o.classPath(), SoakApp.class.getName());
            Process app = new ProcessBuilder(cmd).redirectOutput(out.toFile()).start();
            Thread errKeeper = keepLogLines(app, err);
            if (!app.waitFor(o.seconds() + 180, TimeUnit.SECONDS)) {
                app.destroyForcibly();
                throw new IllegalStateException("soak app did not finish:\n" + tail(out) + "\n" + tail(err));
            }
            errKeeper.join(10_000);
            List<String> lines = Files.readAllLines(out);
            if (app.exitValue() != 0 || !lines.contains("ALLDONE")) {
                throw new IllegalStateException("soak app failed (exit " + app.exitValue() + "):\n" + tail(out) + "\n" + tail(err));
            }
            HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/stop"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            if (!ledger.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("ledger did not stop");
            }
            return SoakVerdict.judge(observe(lines, Files.readAllLines(err), unresolved(journal), Files.readAllLines(dump)));
        } finally {
            ledger.destroyForcibly();
        }
    }

    private SoakVerdict.Observed observe(List<String> out, List<String> err, Map<String, Boolean> cli, List<String> dump) {
        List<SoakVerdict.Sample> samples = new ArrayList<>();
        Map<String, Long> totals = new LinkedHashMap<>();
        Set<String> held = new LinkedHashSet<>();
        Set<String> lostByJdk = new LinkedHashSet<>();
        List<String> odd = new ArrayList<>();
        for (String line : out) {
            if (line.startsWith("SAMPLE ")) {
                Map<String, Long> kv = fields(line);
                samples.add(new SoakVerdict.Sample(kv.get("t"), kv.get("heap"), kv.get("files"), kv.get("fds"),
                        kv.get("maps"), kv.get("calls")));
            } else if (line.startsWith("TOTAL ")) {
                totals.putAll(fields(line));
            } else if (line.startsWith("HELD ")) {
                held.add(line.split(" ")[3]);
            } else if (line.startsWith("JDKLOST ")) {
                lostByJdk.add(line.split(" ")[3]);
            } else if (line.startsWith("ODD ")) {
                odd.add(line);
            }
        }
        List<Long> index = new ArrayList<>();
        long deleted = 0;
        for (String line : err) {
            Matcher m = SWEEP.matcher(line);
            if (m.find()) {
                deleted += Long.parseLong(m.group(2));
                index.add(Long.parseLong(m.group(3)));
            }
        }
        List<SoakVerdict.LedgerEntry> ledger = new ArrayList<>();
        for (String line : dump) {
            String[] p = line.split(" ");
            if (p.length >= 4) {
                ledger.add(new SoakVerdict.LedgerEntry(p[0], p[1], Integer.parseInt(p[2]), Integer.parseInt(p[3])));
            }
        }
        return new SoakVerdict.Observed(o.seconds(), o.retentionSeconds(), o.retentionSeconds() * 1000 / 3, samples, index,
                deleted, totals, held, lostByJdk, cli, ledger, odd);
    }

    /** {@code journal unresolved --json}, as an operator runs it: intent key -> its intent record could be read. */
    private Map<String, Boolean> unresolved(Path journal) throws IOException, InterruptedException {
        Path out = o.workDir().resolve("logs/unresolved.json");
        Process p = new ProcessBuilder(java(), "-jar", o.agentJar().toString(), "journal", "--dir", journal.toString(),
                "--json", "unresolved").redirectOutput(out.toFile()).redirectError(o.workDir().resolve("logs/unresolved.err").toFile())
                .start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("journal unresolved did not finish");
        }
        Map<String, Boolean> keys = new HashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(out)) {
            if (!line.isBlank()) {
                JsonNode n = json.readTree(line);
                keys.put(n.path("intent_key").asText(), n.hasNonNull("attempt_id") && n.hasNonNull("started"));
            }
        }
        return keys;
    }

    /**
     * The agent logs each call at info (debug is needed for the retention lines): keep only retention,
     * warnings and errors, so ten minutes of calls do not fill the disk with per-call lines.
     */
    private static Thread keepLogLines(Process app, Path err) {
        Thread t = new Thread(() -> {
            try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(app.getErrorStream()));
                 var w = Files.newBufferedWriter(err)) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (!line.startsWith("effectful INFO:") && !line.contains("effectful rewrote ")) {
                        w.write(line);
                        w.newLine();
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "soak-stderr");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static Map<String, Long> fields(String line) {
        Map<String, Long> kv = new LinkedHashMap<>();
        for (String part : line.split(" ")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                kv.put(part.substring(0, eq), Long.parseLong(part.substring(eq + 1)));
            }
        }
        return kv;
    }

    private String java() {
        return o.javaHome() + File.separator + "bin" + File.separator + "java";
    }

    private static String awaitFile(Path p, int seconds) throws IOException, InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            if (Files.exists(p)) {
                return Files.readString(p).trim();
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("no " + p + " within " + seconds + " s");
    }

    private static String tail(Path p) throws IOException {
        List<String> l = Files.readAllLines(p);
        return String.join("\n", l.subList(Math.max(0, l.size() - 30), l.size()));
    }
}

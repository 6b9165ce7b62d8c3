package dev.effectful.agent.fleet;

import dev.effectful.agent.reliability.FleetWorkload;
import dev.effectful.agent.reliability.LedgerProcess;
import dev.effectful.agent.reliability.Script;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The fleet crash campaign: three host JVMs (real agent jar, {@code store=postgres}, each its own journal
 * and, as root with {@code ip}, its own network namespace) work through tasks that move between them,
 * against one real PostgreSQL server and a ledger JVM that counts every effect and is never touched.
 * Seeded random faults land while they work: {@code kill -9} of a host (restarted at once, its unfinished
 * tasks given preferably to another host), {@code kill -9} of the database server and its backends
 * (restarted), a {@code SIGSTOP} of the server longer than {@code store.timeout}, and a {@code SIGSTOP}
 * of a host while a row says it holds a live lease, longer than the lease. After the faults every task is
 * finished by the survivors; then the ledger and the store are judged ({@link Result}): no reference
 * applied twice, every finished step's effect in the ledger or its intent held for a person, every held
 * intent listed by the real {@code journal --store postgres unresolved}.
 *
 * <p>The combined campaign ({@code --mixed}, {@code reliability/combined.sh}) adds {@link FleetWorkload#MIXED_TOOLS}
 * to every task (CompletableFuture, Kotlin suspend, approval, key header), approves each request through the CLI
 * while the faults land ({@link Approver}), and with {@code --disk-fills N}, as root, fills each host's journal
 * tmpfs below the reserve and frees it again ({@link #fillDisk}); {@link Mixed} is its part of the verdict.
 *
 * <p>A host frozen past its lease keeps its task: the campaign does not hand that task to another host
 * while it is frozen, since no lease can fence an effect a frozen body is about to make (see FLEET.md).
 *
 * <pre>java -cp TEST_CLASSPATH dev.effectful.agent.fleet.FleetCampaign --host-kills 300 --db-kills 20
 *      --db-freezes 10 --host-freezes 10 --seed 42 --out reliability/target --agent agent/target/effectful-agent.jar</pre>
 */
public final class FleetCampaign {

    /**
     * The faults to deal and how the hosts are set up. {@code mixed}: the combined campaign's tools too
     * (CompletableFuture, Kotlin suspend, approval, key header; see {@link FleetWorkload#MIXED_TOOLS}), approved by
     * the campaign through the CLI while the hosts ask. {@code diskFills}: each host's journal on a small tmpfs of
     * its own (root only), filled below the journal's reserve and freed again that many times.
     */
    public record Options(long seed, int hostKills, int dbKills, int dbFreezes, int hostFreezes, int diskFills,
                          boolean mixed, int tasksPerRun, Path workDir, Path agentJar, String workloadClassPath,
                          String javaHome) {

        public Options(long seed, int hostKills, int dbKills, int dbFreezes, int hostFreezes, int tasksPerRun,
                       Path workDir, Path agentJar, String workloadClassPath, String javaHome) {
            this(seed, hostKills, dbKills, dbFreezes, hostFreezes, 0, false, tasksPerRun, workDir, agentJar,
                    workloadClassPath, javaHome);
        }
    }

    /**
     * What the combined campaign adds to the verdict: the disk fills (and how many a host met with a refusal, and
     * went on after), the approval tool's intents, the verdicts the campaign gave through the CLI, second verdicts
     * the CLI refused, and the {@code approval_requested} records in all the hosts' journals.
     */
    public record Mixed(String disk, int diskFills, int diskRefused, int diskResumed, int approvalIntents,
                        int approved, int secondVerdictsRefused, int approvalRequests, int keyResends) {

        String toJson() {
            return "{\"disk\":\"" + dev.effectful.core.json.JsonText.escaped(disk) + "\",\"disk_fills\":" + diskFills
                    + ",\"disk_fills_refused\":" + diskRefused + ",\"disk_fills_resumed\":" + diskResumed
                    + ",\"approval_intents\":" + approvalIntents + ",\"approved\":" + approved
                    + ",\"second_verdicts_refused\":" + secondVerdictsRefused + ",\"approval_requests\":" + approvalRequests
                    + ",\"key_header_resends_deduplicated\":" + keyResends + "}";
        }
    }

    /** The verdict, from the ledger, the store and the CLI; never from the hosts' own word. */
    public record Result(long seed, String network, int hostKills, int dbKills, int dbFreezes, int hostFreezes,
                         int tasks, int runs, int intents, int effects, int duplicates, int lost, int held,
                         int heldListed, int settleableHeld, int resettledTasks, long seconds, List<String> problems,
                         boolean mixed, Mixed extra) {

        public boolean passed() {
            return duplicates == 0 && lost == 0 && held == heldListed && settleableHeld == 0 && problems.isEmpty();
        }

        public int faults() {
            return hostKills + dbKills + dbFreezes + hostFreezes + extra.diskFills();
        }

        public String toJson() {
            StringBuilder p = new StringBuilder("[");
            for (int i = 0; i < problems.size(); i++) {
                p.append(i == 0 ? "" : ",").append("\"" + dev.effectful.core.json.JsonText.escaped(problems.get(i)) + "\"");
            }
            p.append(']');
            return "{\"host_kills\":" + hostKills + ",\"db_kills\":" + dbKills + ",\"db_freezes\":" + dbFreezes
                    + ",\"host_freezes\":" + hostFreezes + ",\"intents\":" + intents + ",\"effects\":" + effects
                    + ",\"duplicates\":" + duplicates + ",\"lost\":" + lost + ",\"seed\":" + seed
                    + ",\"held\":" + held + ",\"held_listed\":" + heldListed + ",\"held_settleable\":" + settleableHeld
                    + ",\"resettled_tasks\":" + resettledTasks + ",\"tasks\":" + tasks + ",\"runs\":" + runs + ",\"network\":" + "\"" + dev.effectful.core.json.JsonText.escaped(network) + "\""
                    + ",\"mode\":\"" + (mixed ? "combined" : "blocking") + "\",\"combined\":" + extra.toJson()
                    + ",\"seconds\":" + seconds + ",\"passed\":" + passed() + ",\"problems\":" + p + "}\n";
        }

        public String table() {
            return String.format("%s campaign (seed %d, %s)%n"
                            + "  faults: %d host kill -9, %d database kill -9, %d database freezes, %d host freezes with a lease%n"
                            + "%s"
                            + "  work:   %d tasks in %d host runs, %d intents in the store, %d effects in the ledger%n"
                            + "  judged: %d duplicates, %d lost, %d held (%d listed by journal --store postgres unresolved,"
                            + " %d of tools a probe or key could settle; %d tasks called once more to settle)%n  %s in %d s%s",
                    mixed ? "combined" : "fleet", seed, network, hostKills, dbKills, dbFreezes, hostFreezes,
                    !mixed ? "" : String.format("  disk:   %d fills of a host's journal disk (%s), %d met by a refusal, %d went on after the free%n"
                                    + "  tools:  blocking, CompletableFuture, Kotlin suspend, key header, approval: %d approval intents,"
                                    + " %d approved once through the CLI (%d second verdicts refused), %d approval_requested records;"
                                    + " %d key-header requests re-sent with their key and deduplicated by the ledger%n",
                            extra.diskFills(), extra.disk(), extra.diskRefused(), extra.diskResumed(), extra.approvalIntents(),
                            extra.approved(), extra.secondVerdictsRefused(), extra.approvalRequests(), extra.keyResends()),
                    tasks, runs, intents, effects, duplicates,
                    lost, held, heldListed, settleableHeld, resettledTasks, passed() ? "PASSED" : "FAILED", seconds,
                    problems.isEmpty() ? "" : "\n  problems:\n    " + String.join("\n    ",
                            problems.subList(0, Math.min(40, problems.size()))));
        }
    }

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(1);
    private static final List<String> HOSTS = List.of("a", "b", "c");

    private final Options o;
    private final Random random;
    private final Path logs;
    private PostgresServer pg;
    private HostNetworks nets;
    private String ledgerPort;

    public FleetCampaign(Options o) {
        this.o = o;
        this.random = new Random(o.seed());
        this.logs = o.workDir().resolve("logs");
    }

    /** One host: its journal outlives every run; a run is one JVM working through a few tasks. */
    private final class Host {
        final String name;
        final Path journal;
        Process process;
        List<String> tasks = List.of();
        Path out;
        int runs;

        Host(String name) {
            this.name = name;
            Path disk = disks.get(name);
            this.journal = disk == null ? o.workDir().resolve("journal-" + name) : disk.resolve("journal");
        }

        boolean running() {
            return process != null && process.isAlive();
        }

        String output() throws IOException {
            return out == null || !Files.exists(out) ? "" : Files.readString(out, StandardCharsets.UTF_8);
        }

        boolean working() throws IOException {
            return running() && output().contains("\nSTEP ");
        }

        void start(List<String> taskIds) throws IOException {
            tasks = List.copyOf(taskIds);
            out = logs.resolve(name + "-" + (++runs) + ".out");
            Path err = logs.resolve(name + "-" + runs + ".err");
            String via = via(name);
            List<String> cmd = new ArrayList<>();
            if (nets != null) {
                cmd.addAll(List.of(nets.enter(name)));
            }
            cmd.addAll(List.of(java(), "-javaagent:" + o.agentJar() + "=log.level=warn",
                    "-Deffectful.journal.dir=" + journal, "-Deffectful.store=postgres",
                    "-Deffectful.store.url=" + pg.urlVia(via), "-Deffectful.store.user=" + PostgresServer.USER,
                    "-Deffectful.store.lease=" + LEASE.toMillis() + "ms", "-Deffectful.store.timeout=" + STORE_TIMEOUT.toMillis() + "ms",
                    "-Dledger=http://" + via + ":" + ledgerPort, "-Dfleet.mixed=" + o.mixed(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-Xshare:auto", "-Dchronicle.analytics.disable=true", "-Dchronicle.announcer.disable=true",
                    "-cp", o.mixed() ? withKotlin(o.workloadClassPath()) : o.workloadClassPath(), FleetWorkload.class.getName(),
                    String.join(",", taskIds)));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().put("EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD);
            pb.environment().put("HOME", o.workDir().resolve("home").toString());
            process = pb.start();
        }

        /** The tasks this run finished, by its own output. */
        List<String> done() throws IOException {
            return output().lines().filter(l -> l.startsWith("DONE ")).map(l -> l.substring(5).trim()).toList();
        }
    }

    public static void main(String[] args) throws Exception {
        long seed = System.currentTimeMillis() % 100_000;
        int hostKills = 300;
        int dbKills = 20;
        int dbFreezes = 10;
        int hostFreezes = 10;
        int diskFills = 0;
        boolean mixed = false;
        Path out = Path.of("reliability/target");
        Path agent = Path.of("agent/target/effectful-agent.jar");
        for (int i = 0; i < args.length; i += 2) {
            if (args[i].equals("--mixed")) {
                mixed = true;
                i--;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--disk-fills" -> diskFills = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--host-kills" -> hostKills = Integer.parseInt(args[i + 1]);
                case "--db-kills" -> dbKills = Integer.parseInt(args[i + 1]);
                case "--db-freezes" -> dbFreezes = Integer.parseInt(args[i + 1]);
                case "--host-freezes" -> hostFreezes = Integer.parseInt(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--agent" -> agent = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String name = mixed ? "combined" : "fleet";
        System.out.println(name + " campaign seed " + seed + " (repeat with --seed " + seed + ")");
        Path work = out.resolve(name);
        deleteTree(work);
        Result r = new FleetCampaign(new Options(seed, hostKills, dbKills, dbFreezes, hostFreezes, diskFills, mixed, 2,
                work.toAbsolutePath(), agent.toAbsolutePath(), testClasses(), System.getProperty("java.home"))).run(System.out);
        System.out.println(r.table());
        Files.writeString(out.resolve(name + ".json"), r.toJson());
        System.out.println("written " + out.resolve(name + ".json"));
        System.exit(r.passed() ? 0 : 1);
    }

    /**
     * The mixed hosts' class path: the application brings its own Kotlin (the agent never does), so kotlin-stdlib and
     * kotlinx-coroutines go beside the test classes, from where this JVM loaded them.
     */
    static String withKotlin(String classPath) {
        List<String> out = new ArrayList<>(List.of(classPath));
        for (Class<?> c : List.of(kotlin.Unit.class, kotlinx.coroutines.Job.class)) {
            try {
                out.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            } catch (Exception e) {
                throw new IllegalStateException("where " + c.getName() + " was loaded from", e);
            }
        }
        return String.join(File.pathSeparator, out);
    }

    /** Where the hosts' classes are: the test classes this class was loaded from. */
    public static String testClasses() {
        try {
            return Path.of(FleetWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public Result run(Appendable progress) throws Exception {
        Files.createDirectories(logs);
        nets = HostNetworks.createIfPossible(HOSTS).orElse(null);
        String network = nets == null ? "loopback: not root or no ip, the hosts share this machine's loopback"
                : "a network namespace per host";
        progress.append("fleet campaign: seed ").append(Long.toString(o.seed())).append(", ").append(network).append('\n');
        Process ledger = null;
        Map<String, Host> hosts = new LinkedHashMap<>();
        try {
            pg = PostgresServer.start(false, nets == null ? List.of() : nets.gateways());
            Path portFile = o.workDir().resolve("ledger.port");
            Path dump = o.workDir().resolve("ledger.txt");
            ledger = new ProcessBuilder(java(), "-Xmx128m", "-Dsun.net.httpserver.nodelay=true", "-cp", o.workloadClassPath(),
                    LedgerProcess.class.getName(), portFile.toString(), dump.toString(), nets == null ? "127.0.0.1" : "0.0.0.0")
                    .redirectErrorStream(true).redirectOutput(logs.resolve("ledger.txt").toFile()).start();
            ledgerPort = await(() -> Files.exists(portFile) ? Files.readString(portFile).trim() : null, Duration.ofSeconds(60),
                    "ledger port");
            diskNote = mountDisks(progress);
            for (String h : HOSTS) {
                hosts.put(h, new Host(h));
            }
            if (o.mixed()) {
                approver = new Approver();
                approver.start();
            }
            long t0 = System.nanoTime();
            int[] dealt = work(hosts, ledger, progress, t0);
            resettle(hosts.get("a"), progress);
            if (approver != null) {
                approver.close();
            }
            HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ledgerPort + "/stop"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            if (!ledger.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("ledger did not stop");
            }
            return judge(dump, dealt, network, (System.nanoTime() - t0) / 1_000_000_000L, hosts);
        } finally {
            if (approver != null) {
                approver.close();
            }
            for (Host h : hosts.values()) {
                if (h.process != null) {
                    h.process.destroyForcibly();
                    h.process.waitFor(10, TimeUnit.SECONDS);
                }
            }
            if (ledger != null) {
                ledger.destroyForcibly();
            }
            unmountDisks();
            try {
                if (pg != null) {
                    pg.close();
                }
            } finally {
                if (nets != null) {
                    nets.close();
                }
            }
        }
    }

    private String via(String host) {
        return nets == null ? "127.0.0.1" : nets.gateway(host);
    }

    private String java() {
        return o.javaHome() + File.separator + "bin" + File.separator + "java";
    }

    // ------------------------------------------------------------------ the combined campaign's parts

    /** Each host's journal disk: the size of its tmpfs, and what a fill leaves free (below the default 16 MiB reserve). */
    private static final String DISK_SIZE = "64m";
    private static final long FILL_LEAVES = 4L << 20;

    /** Host name to the tmpfs its journal is on; empty when the disk part is not used or cannot be (not root). */
    private final Map<String, Path> disks = new LinkedHashMap<>();
    private String diskNote = "not used";
    private Approver approver;
    private int diskFills;
    private int diskRefused;
    private int diskResumed;

    /** A tmpfs per host for its journal when disk fills are asked for and this is root; else says why not. */
    private String mountDisks(Appendable progress) throws Exception {
        if (o.diskFills() == 0) {
            return "not used";
        }
        String uid = new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!uid.equals("0")) {
            String why = "skipped: mounting a tmpfs for each host's journal needs root (uid " + uid + ")";
            progress.append("disk fills ").append(why).append('\n');
            return why;
        }
        for (String h : HOSTS) {
            Path dir = Files.createDirectories(o.workDir().resolve("disk-" + h));
            Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + DISK_SIZE, "tmpfs", dir.toString())
                    .redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                unmountDisks();
                String why = "skipped: mount -t tmpfs failed: " + said;
                progress.append("disk fills ").append(why).append('\n');
                return why;
            }
            disks.put(h, dir);
        }
        return "a " + DISK_SIZE + " tmpfs per host, filled to " + (FILL_LEAVES >> 20) + " MiB free";
    }

    private void unmountDisks() throws Exception {
        for (Path d : disks.values()) {
            Process p = new ProcessBuilder("umount", "-l", d.toString()).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        disks.clear();
    }

    /**
     * Fills the journal disk of a host at work to below the journal's reserve, waits (bounded) until the host says a
     * call was refused for it, frees the disk and waits until that host finishes a step again. False when no host is
     * at work right now.
     */
    private boolean fillDisk(Map<String, Host> hosts) throws Exception {
        List<Host> working = new ArrayList<>();
        for (Host h : hosts.values()) {
            if (h.working()) {
                working.add(h);
            }
        }
        if (working.isEmpty()) {
            return false;
        }
        Host h = working.get(random.nextInt(working.size()));
        Path disk = disks.get(h.name);
        int mark = Math.max(0, h.output().length() - 1);
        Path filler = disk.resolve("filler");
        long free = Files.getFileStore(disk).getUsableSpace();
        byte[] chunk = new byte[1 << 20];
        try (var out = Files.newOutputStream(filler)) {
            for (long left = free - FILL_LEAVES; left > 0; left -= chunk.length) {
                out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
        }
        int refusedAt;
        try {
            refusedAt = until(() -> h.output().indexOf("\nREFUSED ", mark), h, Duration.ofSeconds(20));
        } finally {
            Files.deleteIfExists(filler);
        }
        diskFills++;
        if (refusedAt < 0) {
            return true; // the host ended its tasks, or its calls were all reads or waits for a person meanwhile
        }
        diskRefused++;
        int after = until(() -> h.output().indexOf("\nSTEP ", refusedAt + 1), h, Duration.ofSeconds(60));
        if (after >= 0) {
            diskResumed++;
        } else if (h.running()) {
            problems.add("host " + h.name + " refused a call for a full disk and did not go on within 60 s of the free");
        }
        return true;
    }

    private interface Position {
        int get() throws IOException;
    }

    /** Polls until {@code where} finds something (its index), the host stops running (-1) or {@code limit} passes (-1). */
    private static int until(Position where, Host h, Duration limit) throws IOException, InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            int at = where.get();
            if (at >= 0) {
                return at;
            }
            if (!h.running()) {
                return where.get();
            }
            Thread.sleep(20);
        }
        return -1;
    }

    /** One CLI run against the store, as an operator runs it: its exit code (-1 when it did not end in 60 s) and output. */
    private record CliRun(int exit, String output) {
    }

    private CliRun cli(String log, String... args) throws IOException, InterruptedException {
        Path out = logs.resolve(log);
        List<String> cmd = new ArrayList<>(List.of(java(), "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-jar",
                o.agentJar().toString(), "journal", "--store", "postgres"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("EFFECTFUL_STORE_URL", pg.url());
        pb.environment().put("EFFECTFUL_STORE_USER", PostgresServer.USER);
        pb.environment().put("EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD);
        pb.environment().put("HOME", o.workDir().resolve("home").toString());
        pb.environment().put("NO_COLOR", "1");
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            return new CliRun(-1, "did not end within 60 s");
        }
        return new CliRun(p.exitValue(), Files.readString(out));
    }

    /**
     * The person of the combined campaign: watches the store for approval requests and approves each through
     * {@code journal --store postgres approve KEY}, while the hosts ask (and are killed, and the database with
     * them: a run that fails is tried again at the next look). For one request in eight it then tries a second
     * verdict, which the CLI must refuse (exit 4) as already decided.
     */
    private final class Approver implements AutoCloseable {
        final Map<String, Integer> given = new java.util.concurrent.ConcurrentHashMap<>();
        final java.util.concurrent.atomic.AtomicInteger secondRefused = new java.util.concurrent.atomic.AtomicInteger();
        private volatile boolean stop;
        private final Thread thread = new Thread(this::loop, "campaign-approver");

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        private void loop() {
            while (!stop) {
                List<String> waiting = new ArrayList<>();
                try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                        "SELECT intent_key FROM effectful_intents WHERE phase = 'awaiting_approval' ORDER BY updated_at")) {
                    ps.setQueryTimeout(5);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            waiting.add(rs.getString(1));
                        }
                    }
                } catch (Exception downOrNoSchemaYet) {
                    // the database is being killed or frozen, or no host has written yet: look again
                }
                try {
                    for (String key : waiting) {
                        if (stop) {
                            return;
                        }
                        approve(key);
                    }
                    if (waiting.isEmpty()) {
                        Thread.sleep(100);
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    synchronized (problems) {
                        problems.add("the approver failed: " + e);
                    }
                    return;
                }
            }
        }

        private void approve(String key) throws Exception {
            CliRun run = cli("approve.out", "approve", key, "--note", "approved by the combined campaign", "--by", "campaign");
            if (run.exit() != 0) {
                return; // database down or frozen (looked at again), or decided already by a run that timed out after committing
            }
            given.merge(key, 1, Integer::sum);
            if (Math.floorMod(key.hashCode() ^ Long.hashCode(o.seed()), 8) == 0) {
                CliRun again = cli("approve-again.out", "approve", key, "--note", "a second verdict", "--by", "campaign");
                if (again.exit() == 4) {
                    secondRefused.incrementAndGet();
                } else if (again.exit() == 0) {
                    given.merge(key, 1, Integer::sum);
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.join(TimeUnit.MINUTES.toMillis(3));
        }
    }

    /** The combined campaign's own verdict: approvals once, requests once, every key-header request keyed, the disk. */
    private Mixed judgeMixed(List<String> dumpLines, Map<String, Host> hosts) throws Exception {
        if (!o.mixed()) {
            return new Mixed(diskNote, diskFills, diskRefused, diskResumed, 0, 0, 0, 0, 0);
        }
        int intents = 0;
        int approved = 0;
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT intent_key, phase, approval_by FROM effectful_intents WHERE call = 'transfer'")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    intents++;
                    String key = rs.getString(1);
                    String phase = rs.getString(2);
                    if (rs.getString(3) != null) {
                        approved++;
                    } else if (!phase.equals("awaiting_approval")) {
                        problems.add("transfer " + key + " is " + phase + " with no approval recorded in the store");
                    }
                    int times = approver.given.getOrDefault(key, 0);
                    if (times > 1) {
                        problems.add("transfer " + key + " was approved " + times + " times through the CLI");
                    }
                }
            }
        }
        // what the store keeps as the result of a future's or a coroutine's call is the value, never the promise
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT intent_key, call, result FROM effectful_intents WHERE call IN ('book_async', 'push_suspend')"
                        + " AND phase = 'ok' AND result_stored")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(3) == null || !rs.getString(3).contains("done:" + rs.getString(2) + ":")) {
                        problems.add(rs.getString(2) + " " + rs.getString(1) + " stored " + rs.getString(3) + ", not its value");
                    }
                }
            }
        }
        Map<String, Integer> requests = new HashMap<>();
        for (Host h : hosts.values()) {
            if (Files.isDirectory(h.journal)) {
                for (var rec : dev.effectful.agent.e2e.JournalContents.of(h.journal)
                        .of(dev.effectful.core.journal.RecordType.APPROVAL_REQUESTED)) {
                    requests.merge(rec.intentKey(), 1, Integer::sum);
                }
            }
        }
        requests.forEach((key, n) -> {
            if (n > 1) {
                problems.add("approval for " + key + " requested " + n + " times in the hosts' journals");
            }
        });
        int resends = 0;
        for (String line : dumpLines) {
            String[] f = line.split(" ");
            if (f.length >= 4 && f[0].equals("no_key_header")) {
                problems.add("a key-header request reached the ledger without its intent key: " + line);
            }
            if (f.length >= 4 && f[0].equals("pay_keyed") && Integer.parseInt(f[2]) > Integer.parseInt(f[3])) {
                resends++;
            }
        }
        return new Mixed(diskNote, diskFills, diskRefused, diskResumed, intents, approved,
                approver.secondRefused.get(), requests.values().stream().mapToInt(Integer::intValue).sum(), resends);
    }

    /** Tasks started, finished, and which host ran each last (so a task cut on one host moves to another). */
    private final Set<String> started = new LinkedHashSet<>();
    private final Set<String> pending = new LinkedHashSet<>();
    private final Set<String> finished = new LinkedHashSet<>();
    private final Map<String, String> lastHost = new HashMap<>();
    private final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    private int round;
    private int runs;
    /** Tasks run once more after the faults to settle intents a probe or a key settles (see {@link #resettle}). */
    private int resettled;
    private boolean namespacesChecked;

    /** Deals the faults while the hosts work, then lets the survivors finish every task. */
    private int[] work(Map<String, Host> hosts, Process ledger, Appendable progress, long t0) throws Exception {
        int[] left = {o.hostKills(), o.dbKills(), o.dbFreezes(), o.hostFreezes(), disks.isEmpty() ? 0 : o.diskFills()};
        int[] dealt = new int[5];
        long nextFault = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
        long lastProgress = System.nanoTime();
        int failures = 0;
        long drainEnd = Long.MAX_VALUE;
        // Faults land only on hosts at work; hosts that cannot work (a store they never reach) would let the
        // campaign run on for hours, each call refused until its task's deadline. Past this bound it stops and
        // says so instead.
        long faultsBy = t0 + TimeUnit.SECONDS.toNanos(300 + 3L * java.util.Arrays.stream(left).sum());
        int chosen = -1;
        while (true) {
            if (!ledger.isAlive()) {
                throw new IllegalStateException("the ledger JVM died: its counts are gone, the campaign cannot be judged");
            }
            boolean faultsLeft = left[0] + left[1] + left[2] + left[3] + left[4] > 0;
            for (Host h : hosts.values()) {
                if (h.process != null && !h.process.isAlive()) {
                    int exit = h.process.exitValue();
                    settle(h);
                    if (exit != 0) {
                        failures++;
                        problems.add("host " + h.name + " run " + h.runs + " exited " + exit + " on its own: "
                                + tail(h.out.resolveSibling(h.out.getFileName().toString().replace(".out", ".err"))));
                        if (failures > 20) {
                            throw new IllegalStateException("hosts keep failing on their own: " + problems);
                        }
                    }
                    h.process = null;
                }
                if (h.process == null) {
                    if (pending.isEmpty() && faultsLeft) {
                        round++;
                        for (int t = 1; t <= HOSTS.size() * o.tasksPerRun(); t++) {
                            String id = Script.taskId(round, t);
                            pending.add(id);
                            started.add(id);
                        }
                    }
                    List<String> mine = pick(h.name);
                    if (!mine.isEmpty()) {
                        h.start(mine);
                        runs++;
                    }
                }
            }
            checkNamespaces(hosts);
            if (!faultsLeft) {
                if (drainEnd == Long.MAX_VALUE) {
                    drainEnd = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
                    progress.append(String.format("faults dealt in %.0f s; the survivors finish %d tasks%n",
                            (System.nanoTime() - t0) / 1e9, pending.size() + hosts.values().stream().mapToInt(h -> h.running() ? h.tasks.size() : 0).sum()));
                }
                if (pending.isEmpty() && hosts.values().stream().noneMatch(Host::running)) {
                    break;
                }
                if (System.nanoTime() > drainEnd) {
                    throw new IllegalStateException("tasks still unfinished 10 minutes after the last fault: " + pending);
                }
            } else if (System.nanoTime() > faultsBy) {
                throw new IllegalStateException(String.format("faults still left after %.0f s (host kills, db kills, db freezes,"
                        + " host freezes, disk fills left: %s); %d tasks done; the hosts' last words: %s",
                        (System.nanoTime() - t0) / 1e9, java.util.Arrays.toString(left), finished.size(), lastWords(hosts)));
            } else if (System.nanoTime() >= nextFault) {
                // a fault that cannot land yet (no host at work, no lease held) is tried again, not swapped for another
                int kind = chosen >= 0 ? chosen : chooseFault(left);
                chosen = kind;
                if (deal(kind, hosts)) {
                    chosen = -1;
                    left[kind]--;
                    dealt[kind]++;
                    nextFault = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100 + random.nextInt(900));
                } else {
                    nextFault = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
                }
            }
            if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(30)) {
                lastProgress = System.nanoTime();
                progress.append(String.format("%.0f s: %d host kills, %d db kills, %d db freezes, %d host freezes, %d disk fills;"
                                + " %d tasks done, %d pending, round %d%s%n", (System.nanoTime() - t0) / 1e9, dealt[0], dealt[1], dealt[2],
                        dealt[3], dealt[4], finished.size(), pending.size(), round,
                        approver == null ? "" : "; " + approver.given.size() + " approvals given"));
            }
            Thread.sleep(5);
        }
        return dealt;
    }

    private String lastWords(Map<String, Host> hosts) throws IOException {
        StringBuilder out = new StringBuilder();
        for (Host h : hosts.values()) {
            if (h.out != null) {
                out.append("\n").append(h.name).append(": ").append(tail(h.out)).append(" | ")
                        .append(tail(h.out.resolveSibling(h.out.getFileName().toString().replace(".out", ".err"))));
            }
        }
        return out.toString();
    }

    /**
     * Once the faults are over, the tasks with an intent the store still calls unfinished although its tool has
     * a probe or a key (an outcome committed asynchronously and lost with a killed database, or written by a
     * host killed right after its body) run once more on one host: their next call probes and settles them, as
     * a user's next call would. What stays held is what a person must settle.
     */
    private void resettle(Host host, Appendable progress) throws Exception {
        Set<String> tasks = new java.util.TreeSet<>();
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT task, call FROM effectful_intents WHERE phase IN ('intended', 'unknown', 'probe_failed')")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (started.contains(rs.getString(1)) && !FleetWorkload.tool(rs.getString(2)).needsPerson()) {
                        tasks.add(rs.getString(1));
                    }
                }
            }
        }
        resettled = tasks.size();
        if (tasks.isEmpty()) {
            return;
        }
        progress.append("settling by a last call (probe, or a safe repeat): ").append(String.join(",", tasks)).append('\n');
        host.start(new ArrayList<>(tasks));
        runs++;
        if (!host.process.waitFor(5, TimeUnit.MINUTES) || host.process.exitValue() != 0) {
            host.process.destroyForcibly();
            problems.add("the settling run did not finish: " + tail(host.out));
        }
        host.process = null;
    }

    /** A fault kind, weighted by how many of each are left, so every kind is spread over the whole run. */
    private int chooseFault(int[] left) {
        int total = java.util.Arrays.stream(left).sum();
        int r = random.nextInt(total);
        for (int k = 0; k < left.length; k++) {
            if (r < left[k]) {
                return k;
            }
            r -= left[k];
        }
        throw new IllegalStateException();
    }

    /** Deals one fault; false when it cannot land right now (no host at work, no live lease), to be tried again. */
    private boolean deal(int kind, Map<String, Host> hosts) throws Exception {
        switch (kind) {
            case 0 -> {
                List<Host> working = new ArrayList<>();
                for (Host h : hosts.values()) {
                    if (h.working()) {
                        working.add(h);
                    }
                }
                if (working.isEmpty()) {
                    return false;
                }
                Host h = working.get(random.nextInt(working.size()));
                if (!signal("-9", h.process.pid())) {
                    return false; // it ended on its own a moment ago: the loop collects it as a normal exit
                }
                if (!h.process.waitFor(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("kill -9 " + h.process.pid() + " did not end it");
                }
                settle(h);
                h.process = null;
                return true;
            }
            case 1 -> {
                pg.kill9();
                Thread.sleep(random.nextInt(1000)); // the hosts meet a database that is gone
                pg.startServer();
                return true;
            }
            case 4 -> {
                return fillDisk(hosts);
            }
            case 2 -> {
                try {
                    pg.freeze();
                    Thread.sleep(STORE_TIMEOUT.toMillis() + 200 + random.nextInt(2000));
                } finally {
                    pg.thaw();
                }
                return true;
            }
            default -> {
                Map<Long, Host> byPid = new HashMap<>();
                for (Host h : hosts.values()) {
                    if (h.running()) {
                        byPid.put(h.process.pid(), h);
                    }
                }
                Optional<Long> holder = leaseHolders(byPid.keySet()).stream().findFirst();
                if (holder.isEmpty()) {
                    return false;
                }
                long pid = holder.get();
                if (!signal("-STOP", pid)) {
                    return false;
                }
                try {
                    if (!leaseHolders(Set.of(pid)).contains(pid)) {
                        return false; // it released its lease before the signal landed: not a freeze with a lease
                    }
                    Thread.sleep(LEASE.toMillis() + 200 + random.nextInt(2000));
                    return true;
                } finally {
                    signal("-CONT", pid);
                }
            }
        }
    }

    /** Which of {@code pids} a store row names as holding a live lease right now. */
    private Set<Long> leaseHolders(Collection<Long> pids) throws Exception {
        Set<Long> out = new HashSet<>();
        if (pids.isEmpty()) {
            return out;
        }
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT DISTINCT pid FROM effectful_intents WHERE lease_until > now() AND pid = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("bigint", pids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        } catch (java.sql.SQLException e) {
            // no schema yet (no host has claimed anything): nobody holds a lease
        }
        return out;
    }

    /** After a run ends (exit or kill): its finished tasks are done, the others go back, marked as this host's. */
    private void settle(Host h) throws IOException {
        List<String> done = h.done();
        finished.addAll(done);
        for (String t : h.tasks) {
            if (!done.contains(t)) {
                pending.add(t);
                lastHost.put(t, h.name);
            }
        }
        pending.removeAll(finished);
        h.tasks = List.of();
    }

    /** Up to tasksPerRun pending tasks, those last cut on another host first (so tasks move between hosts). */
    private List<String> pick(String host) {
        List<String> out = new ArrayList<>();
        for (String t : pending) {
            if (out.size() < o.tasksPerRun() && !host.equals(lastHost.get(t))) {
                out.add(t);
            }
        }
        for (String t : pending) {
            if (out.size() < o.tasksPerRun() && !out.contains(t)) {
                out.add(t);
            }
        }
        pending.removeAll(out);
        return out;
    }

    private void checkNamespaces(Map<String, Host> hosts) throws IOException {
        if (nets == null || namespacesChecked) {
            return;
        }
        for (Host h : hosts.values()) {
            // a host at work: "ip netns exec" has entered the namespace and exec'd the JVM
            if (!h.working()) {
                return;
            }
        }
        Set<Path> seen = new HashSet<>();
        seen.add(Files.readSymbolicLink(Path.of("/proc/self/ns/net")));
        for (Host h : hosts.values()) {
            try {
                if (!seen.add(Files.readSymbolicLink(Path.of("/proc", Long.toString(h.process.pid()), "ns", "net")))) {
                    problems.add("host " + h.name + " shares a network namespace with another host or the campaign");
                }
            } catch (IOException gone) {
                return; // it exited in between: check with the next three
            }
        }
        namespacesChecked = true;
    }

    private static final Pattern STEP = Pattern.compile("STEP (\\S+) (\\S+) (\\S+) (\\S+).*");

    /** The verdict: the ledger's counts, the store's rows, the CLI's list of held intents. */
    private Result judge(Path dump, int[] dealt, String network, long seconds, Map<String, Host> hosts) throws Exception {
        Map<String, int[]> ledger = new HashMap<>(); // "verb ref" -> hits, applied
        int effects = 0;
        int duplicates = 0;
        List<String> dumpLines = Files.readAllLines(dump);
        for (String line : dumpLines) {
            String[] f = line.split(" ");
            if (f.length < 4) {
                continue;
            }
            int applied = Integer.parseInt(f[3]);
            ledger.put(f[0] + " " + f[1], new int[] {Integer.parseInt(f[2]), applied});
            effects += applied;
            if (applied > 1) {
                duplicates++;
                problems.add("duplicate: " + f[0] + " " + f[1] + " applied " + applied + " times");
            }
        }
        // the store: every row of the campaign's tasks
        Map<String, List<String[]>> rows = new HashMap<>(); // "task verb" -> [key, phase]
        int intents = 0;
        try (Connection c = pg.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT intent_key, task, call, phase FROM effectful_intents")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    intents++;
                    rows.computeIfAbsent(rs.getString(2) + " " + rs.getString(3), k -> new ArrayList<>())
                            .add(new String[] {rs.getString(1), rs.getString(4)});
                }
            }
        }
        if (nets != null && !namespacesChecked) {
            problems.add("the three hosts were never at work at one moment: their network namespaces went unchecked");
        }
        Set<String> listed = unresolvedByCli();
        // the steps as the run that finished each task saw them (errors are problems whoever saw them)
        for (Path out : listOutputs()) {
            for (String line : Files.readAllLines(out)) {
                Matcher m = STEP.matcher(line);
                if (m.matches() && m.group(3).equals("error")) {
                    problems.add("step failed: " + line);
                }
            }
        }
        int lost = 0;
        int held = 0;
        int heldListed = 0;
        int settleable = 0;
        for (String task : started) {
            if (!finished.contains(task)) {
                lost++;
                problems.add("task " + task + " never finished");
                continue;
            }
            for (Script.Step step : FleetWorkload.steps(task, o.mixed())) {
                Script.Tool tool = step.tool();
                if (tool.kind().equals("read")) {
                    continue;
                }
                List<String[]> mine = rows.getOrDefault(task + " " + tool.verb(), List.of());
                if (mine.isEmpty()) {
                    lost++;
                    problems.add("lost: " + task + " " + tool.verb() + " has no intent in the store");
                    continue;
                }
                List<String[]> holds = mine.stream().filter(r -> Set.of("intended", "unknown", "probe_failed").contains(r[1])).toList();
                if (!holds.isEmpty()) {
                    for (String[] r : holds) {
                        held++;
                        if (listed.contains(r[0])) {
                            heldListed++;
                        } else {
                            problems.add("held but not listed by journal --store postgres unresolved: " + task + " "
                                    + tool.verb() + " " + r[0] + " (" + r[1] + ")");
                        }
                        if (!tool.needsPerson()) {
                            settleable++;
                            problems.add("held although its next call probes or repeats safely: " + task + " "
                                    + tool.verb() + " " + r[0] + " (" + r[1] + ")");
                        }
                    }
                    continue;
                }
                boolean ok = mine.stream().allMatch(r -> r[1].equals("ok") || r[1].equals("resolved_applied"));
                List<String> refs = tool.batch() ? Script.ROWS.stream().map(row -> step.ref() + ":" + row).toList()
                        : List.of(step.ref());
                for (String ref : refs) {
                    int[] l = ledger.get(tool.verb() + " " + ref);
                    if (!ok || l == null || l[1] == 0) {
                        lost++;
                        problems.add("lost: " + task + " " + tool.verb() + " " + ref + " ends "
                                + mine.stream().map(r -> r[1]).toList() + " in the store, " + (l == null ? 0 : l[1])
                                + " effects in the ledger");
                    }
                }
            }
        }
        Mixed mixed = judgeMixed(dumpLines, hosts);
        return new Result(o.seed(), network, dealt[0], dealt[1], dealt[2], dealt[3], started.size(), runs, intents, effects,
                duplicates, lost, held, heldListed, settleable, resettled, seconds, List.copyOf(problems), o.mixed(), mixed);
    }

    private List<Path> listOutputs() throws IOException {
        try (Stream<Path> s = Files.list(logs)) {
            return s.filter(p -> p.getFileName().toString().matches("[abc]-\\d+\\.out")).sorted().toList();
        }
    }

    /** The intent keys {@code journal --store postgres unresolved --json} lists: the real CLI, as an operator runs it. */
    private Set<String> unresolvedByCli() throws Exception {
        Path out = logs.resolve("unresolved.jsonl");
        ProcessBuilder pb = new ProcessBuilder(java(), "-jar", o.agentJar().toString(), "journal", "--store", "postgres",
                "unresolved", "--json").redirectOutput(out.toFile()).redirectError(logs.resolve("unresolved.err").toFile());
        pb.environment().put("EFFECTFUL_STORE_URL", pg.url());
        pb.environment().put("EFFECTFUL_STORE_USER", PostgresServer.USER);
        pb.environment().put("EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD);
        pb.environment().put("NO_COLOR", "1");
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("journal --store postgres unresolved did not finish");
        }
        if (p.exitValue() != 0 && p.exitValue() != 3) {
            throw new IllegalStateException("journal --store postgres unresolved exited " + p.exitValue() + ": "
                    + Files.readString(logs.resolve("unresolved.err")));
        }
        Set<String> keys = new HashSet<>();
        Matcher m = Pattern.compile("\"intent_key\":\"([^\"]+)\"").matcher(Files.readString(out));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    private static String tail(Path p) throws IOException {
        if (!Files.exists(p)) {
            return "(no stderr)";
        }
        List<String> lines = Files.readAllLines(p);
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }

    /** A real signal by process id; false when the process had already ended. */
    private static boolean signal(String sig, long pid) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", sig, Long.toString(pid)).redirectErrorStream(true).start();
        String out = new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!k.waitFor(10, TimeUnit.SECONDS)) {
            k.destroyForcibly();
            throw new IllegalStateException("kill " + sig + " " + pid + " timed out");
        }
        if (k.exitValue() == 0) {
            return true;
        }
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            throw new IllegalStateException("kill " + sig + " " + pid + " failed: " + out.trim());
        }
        return false;
    }

    private interface Check<T> {
        T get() throws IOException;
    }

    private static <T> T await(Check<T> check, Duration limit, String what) throws IOException, InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            T v = check.get();
            if (v != null && !"".equals(v)) {
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
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}

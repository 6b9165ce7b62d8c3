package dev.effectful.agent.fleet;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server of the test's own, from {@link PgBinaries} (Maven Central's binaries):
 * {@code initdb} into a temporary directory, started on a free loopback port with password
 * authentication, killable with a real {@code kill -9} and freezable with {@code SIGSTOP}. The
 * server refuses to run as root: as root, every server command runs as {@code nobody}
 * ({@code setpriv}), which owns the directory; as any other user, as that user.
 */
public final class PostgresServer implements AutoCloseable {

    public static final String USER = "effectful";
    public static final String PASSWORD = "fleet-pw-7Qx";

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final int port;

    private final boolean fsync;
    /** Addresses the server listens on: loopback, and any namespace gateways. */
    private String listen = "127.0.0.1";

    private PostgresServer(Path bin, Path dir, int port, boolean fsync) {
        this.fsync = fsync;
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
    }

    /** The unprivileged user the server runs as when the tests run as root. */
    static final String SERVER_USER_AS_ROOT = "nobody";

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** A server for tests: fsync off, as crash-safety of the server itself is not what they test. */
    public static PostgresServer start() throws IOException, InterruptedException {
        return start(false);
    }

    /** {@code fsync} on is PostgreSQL's default and what a benchmark should measure. */
    public static PostgresServer start(boolean fsync) throws IOException, InterruptedException {
        return start(fsync, List.of());
    }

    /**
     * Also listening on {@code alsoListenOn} (gateways of other network namespaces, see HostNetworks),
     * with password logins allowed from 10.213.0.0/16.
     */
    public static PostgresServer start(boolean fsync, List<String> alsoListenOn) throws IOException, InterruptedException {
        Path bin = PgBinaries.bin();
        Path dir = Files.createTempDirectory("effectful-pg");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
        if (isRoot()) {
            Files.setOwner(dir, users.lookupPrincipalByName(SERVER_USER_AS_ROOT));
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        PostgresServer pg = new PostgresServer(bin, dir, port, fsync);
        pg.listen = String.join(",", java.util.stream.Stream.concat(java.util.stream.Stream.of("127.0.0.1"),
                alsoListenOn.stream()).toList());
        Path pw = dir.resolve("pw");
        Files.writeString(pw, PASSWORD + "\n");
        if (isRoot()) {
            Files.setOwner(pw, users.lookupPrincipalByName(SERVER_USER_AS_ROOT));
        }
        System.out.println("PostgresServer: " + bin.getParent() + (isRoot() ? " as " + SERVER_USER_AS_ROOT : ""));
        pg.asServerUser(List.of(bin.resolve("initdb").toString(), "-D", pg.data.toString(), "-U", USER, "--pwfile=" + pw,
                "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--no-locale", "--no-sync"), 120);
        Files.delete(pw);
        if (!alsoListenOn.isEmpty()) {
            Files.writeString(pg.data.resolve("pg_hba.conf"), "host all all 10.213.0.0/16 scram-sha-256\n",
                    java.nio.file.StandardOpenOption.APPEND);
        }
        pg.startServer();
        return pg;
    }

    /** Starts (or restarts after a kill) the server and waits until it accepts connections. */
    public void startServer() throws IOException, InterruptedException {
        asServerUser(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("server.log").toString(),
                "-w", "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=" + listen + " -c fsync=" + (fsync ? "on" : "off")
                        + " -c max_connections=60", "start"), 90);
    }

    /** A real kill -9 of the postmaster and of each of its backends, by process id. */
    public void kill9() throws IOException, InterruptedException {
        List<String> pids = signal("-9");
        for (String p : pids) {
            ProcessHandle.of(Long.parseLong(p)).ifPresent(h -> h.onExit().orTimeout(10, TimeUnit.SECONDS).join());
        }
    }

    /**
     * Freezes the whole server: SIGSTOP to the postmaster, then to each of its backends and helper
     * processes, so it neither answers nor commits until {@link #thaw}. A slow or paused database,
     * as a client sees it.
     */
    public void freeze() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** SIGCONT to every process {@link #freeze} stopped: the server goes on where it was. */
    public void thaw() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private List<String> signal(String sig) throws IOException, InterruptedException {
        long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        List<String> pids = new ArrayList<>();
        pids.add(Long.toString(postmaster));
        ProcessHandle.of(postmaster).ifPresent(p -> p.children().forEach(ch -> pids.add(Long.toString(ch.pid()))));
        // all in one kill, so the server stops (and resumes) as one; a backend that exits between the listing and
        // the signal (its client was killed) is no failure: throwing then would leave a frozen server never thawed
        List<String> cmd = new ArrayList<>(List.of("kill", sig));
        cmd.addAll(pids);
        Process k = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!k.waitFor(10, TimeUnit.SECONDS)) {
            k.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        if (k.exitValue() != 0) {
            for (String line : out.lines().filter(l -> !l.isBlank()).toList()) {
                boolean vanished = line.contains("No such process") && !line.contains("(" + postmaster + ")");
                if (!vanished) {
                    throw new AssertionError("failed (" + k.exitValue() + "): " + cmd + "\n" + out);
                }
            }
        }
        return pids;
    }

    public String url() {
        return urlVia("127.0.0.1");
    }

    /** The server as a process reaches it through {@code address} (another namespace's gateway). */
    public String urlVia(String address) {
        return "jdbc:postgresql://" + address + ":" + port + "/postgres";
    }

    public int port() {
        return port;
    }

    /** The environment a CLI run with {@code --store postgres} takes this server from. */
    public java.util.Map<String, String> storeEnv() {
        return java.util.Map.of("EFFECTFUL_STORE_URL", url(), "EFFECTFUL_STORE_USER", USER,
                "EFFECTFUL_STORE_PASSWORD", PASSWORD);
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), USER, PASSWORD);
    }

    /** The primary group of {@link #SERVER_USER_AS_ROOT} (nogroup on Debian, nobody elsewhere), by number. */
    private static String serverGroup() throws IOException {
        try (var lines = Files.lines(Path.of("/etc/passwd"))) {
            return lines.map(l -> l.split(":")).filter(f -> f.length > 3 && f[0].equals(SERVER_USER_AS_ROOT))
                    .map(f -> f[3]).findFirst()
                    .orElseThrow(() -> new AssertionError("running as root and there is no '" + SERVER_USER_AS_ROOT
                            + "' user in /etc/passwd to run PostgreSQL as (it refuses to run as root)"));
        }
    }

    /** As root, as {@link #SERVER_USER_AS_ROOT} with no other groups; else as ourselves. */
    private void asServerUser(List<String> command, int seconds) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (isRoot()) {
            cmd.addAll(List.of("setpriv", "--reuid=" + SERVER_USER_AS_ROOT, "--regid=" + serverGroup(),
                    "--clear-groups", "--"));
        }
        cmd.addAll(command);
        run(cmd, seconds);
    }

    private void run(List<String> cmd, int seconds) throws IOException, InterruptedException {
        Path log = Files.createTempFile("pg-cmd", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.directory(dir.toFile()); // the server user may not be able to enter ours
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd + "\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        if (p.exitValue() != 0) {
            String server = Files.exists(dir.resolve("server.log")) ? Files.readString(dir.resolve("server.log")) : "";
            throw new AssertionError("failed (" + p.exitValue() + "): " + cmd + "\n" + out + "\n" + server);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                asServerUser(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"), 30);
            }
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}

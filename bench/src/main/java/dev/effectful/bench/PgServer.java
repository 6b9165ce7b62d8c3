package dev.effectful.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL server for the {@code effectful_postgres} comparators, from the Debian
 * package's binaries: {@code initdb} into a temporary directory, started on a free loopback port
 * with password authentication. PostgreSQL refuses to run as root, so when we are root every server
 * command runs as the {@code postgres} OS user. The same approach as the agent's fleet tests
 * (agent test sources), kept here because the bench module must not depend on test classes.
 *
 * <p>Clients reach it over TCP on 127.0.0.1, as an agent would; this driver manages databases with
 * {@code psql} over the server's private Unix socket (trusted), so it needs no JDBC driver itself.
 */
final class PgServer implements AutoCloseable {

    static final String USER = "effectful";
    static final String PASSWORD = "bench-pw-3Lk";

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final int port;
    private final boolean asPostgresUser;

    private PgServer(Path bin, Path dir, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /**
     * Why no server can be started here, or empty when one can: the newest
     * {@code /usr/lib/postgresql/N/bin} with initdb, pg_ctl and psql, and (as root) a {@code postgres} user.
     */
    static Optional<String> unavailable() {
        if (binaries().isEmpty()) {
            return Optional.of("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb;"
                    + " apt-get install postgresql)");
        }
        if (isRoot() && postgresUser().isEmpty()) {
            return Optional.of("running as root and there is no 'postgres' OS user to run the server as");
        }
        return Optional.empty();
    }

    private static Optional<Path> binaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl"))
                            && Files.isExecutable(b.resolve("psql")))
                    .max(Comparator.comparingInt(b -> version(b.getParent().getFileName().toString())));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int version(String s) {
        try {
            return Integer.parseInt(s.replaceAll("\\D.*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static Optional<UserPrincipal> postgresUser() {
        try {
            return Optional.of(Path.of("/").getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName("postgres"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts a server. {@code fsync} on is PostgreSQL's default and what the headline figure
     * measures; off shows what the same calls cost without waiting for the disk.
     */
    static PgServer start(boolean fsync) throws IOException {
        Path bin = binaries().orElseThrow(() -> new IllegalStateException(unavailable().orElse("no PostgreSQL")));
        boolean asPostgres = isRoot();
        // /tmp, not bench/target: the postgres user must be able to reach the data directory
        Path dir = Files.createTempDirectory("effectful-bench-pg");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        if (asPostgres) {
            Files.setOwner(dir, postgresUser().orElseThrow());
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        PgServer pg = new PgServer(bin, dir, port, asPostgres);
        try {
            Path pw = dir.resolve("pw");
            Files.writeString(pw, PASSWORD + "\n");
            if (asPostgres) {
                Files.setOwner(pw, postgresUser().orElseThrow());
            }
            pg.server(List.of(bin.resolve("initdb").toString(), "-D", pg.data.toString(), "-U", USER,
                    "--pwfile=" + pw, "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--no-sync"), 120);
            Files.delete(pw);
            pg.server(List.of(bin.resolve("pg_ctl").toString(), "-D", pg.data.toString(), "-l",
                    dir.resolve("server.log").toString(), "-w", "-t", "60", "-o", "-p " + port + " -k " + dir
                            + " -c listen_addresses=127.0.0.1 -c fsync=" + (fsync ? "on" : "off")
                            + " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"
                            + " -c track_wal_io_timing=on",
                    "start"), 90);
            return pg;
        } catch (IOException | RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    /** The JDBC URL of database {@code db}, over TCP on loopback. */
    String url(String db) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + db;
    }

    /** A fresh database for one fork (names are plain identifiers chosen by the driver). */
    void createDatabase(String db) throws IOException {
        sql("postgres", "CREATE DATABASE " + db);
        sql(db, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        sql(db, "SELECT pg_stat_reset_shared('wal')"); // the WAL counters are per server: count this fork's only
    }

    void dropDatabase(String db) throws IOException {
        sql("postgres", "DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
    }

    /**
     * What the agent ran in {@code db}: the commits and WAL flushes (fsyncs) per new intent, with
     * the mean time of one flush, then pg_stat_statements, one line per statement with its number
     * of calls, most called first, beside the rows of effectful_intents (one per new intent).
     */
    String statementsReport(String db) throws IOException {
        String perIntent = sql(db, "SELECT 'per intent: ' || round(d.xact_commit::numeric / greatest(n.c, 1), 2)"
                + " || ' commits, ' || round(w.wal_sync::numeric / greatest(n.c, 1), 2) || ' WAL flushes of '"
                + " || round((w.wal_sync_time / greatest(w.wal_sync, 1))::numeric, 2) || ' ms each (' || n.c || ' intents)'"
                + " FROM (SELECT count(*) AS c FROM effectful_intents) n, pg_stat_wal w, pg_stat_database d"
                + " WHERE d.datname = current_database()");
        return perIntent.lines().skip(1).filter(l -> l.startsWith("per intent")).findFirst().orElse("") + "\n"
                + sql(db, "SELECT (SELECT count(*) FROM effectful_intents) AS intents, s.calls,"
                + " round(s.mean_exec_time::numeric, 3) AS mean_ms, left(regexp_replace(s.query, '\\s+', ' ', 'g'), 110)"
                + " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
                + " WHERE d.datname = current_database() AND s.calls > 5 ORDER BY s.calls DESC");
    }

    /** Runs one SQL command with psql over the Unix socket; returns its unaligned output. */
    String sql(String db, String command) throws IOException {
        return server(List.of(bin.resolve("psql").toString(), "-X", "-q", "-A", "-F", " | ", "-v", "ON_ERROR_STOP=1",
                "-h", dir.toString(), "-p", Integer.toString(port), "-U", USER, "-d", db, "-c", command), 60);
    }

    private String server(List<String> command, int seconds) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (asPostgresUser) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(command);
        Path log = Files.createTempFile("pg-cmd", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!waitFor(p, seconds)) {
                p.destroyForcibly();
                throw new IOException("timed out after " + seconds + " s: " + cmd + "\n" + Files.readString(log));
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                Path serverLog = dir.resolve("server.log");
                throw new IOException("failed (" + p.exitValue() + "): " + cmd + "\n" + out
                        + (Files.exists(serverLog) ? "\n" + Files.readString(serverLog) : ""));
            }
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static boolean waitFor(Process p, int seconds) throws IOException {
        try {
            return p.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for " + p.info().command().orElse("psql"));
        }
    }

    @Override
    public void close() throws IOException {
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                server(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w", "stop"), 60);
            }
        } finally {
            Dirs.delete(dir);
        }
    }
}

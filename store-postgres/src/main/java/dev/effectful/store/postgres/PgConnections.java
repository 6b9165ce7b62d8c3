package dev.effectful.store.postgres;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A small pool of PostgreSQL connections whose every wait is bounded by the caller's deadline: a
 * database that is down, slow or unreachable costs a call at most its budget, never a hang. A
 * connection is opened on a helper thread so even a server that accepts TCP and then stalls cannot
 * hold the caller past its deadline. The driver is used directly, not through DriverManager,
 * because the agent's isolated loader is invisible to DriverManager's caller checks.
 *
 * <p>A connection given up on (a timeout, a broken socket) may still have a statement on its way:
 * a server that was frozen commits it when it resumes, after this process has told its caller the
 * call was not made. Each connection therefore carries a name of its own (its
 * {@code application_name}), and before this process writes anything again it {@link #fence fences}
 * the ones it gave up on: it terminates their server sessions and waits until they are gone, so
 * whatever they were going to commit has landed or never will, and can then be read and undone.
 */
final class PgConnections implements AutoCloseable {

    private final Driver driver = new org.postgresql.Driver();
    private final String url;
    private final Properties props;
    private final long timeoutMillis;
    private final Semaphore slots;
    private final LinkedBlockingDeque<Connection> idle = new LinkedBlockingDeque<>();
    /** The session name of every open connection. */
    private final Map<Connection, String> names = new ConcurrentHashMap<>();
    /** Sessions of connections given up on that may still be running on the server. */
    private final Set<String> suspects = ConcurrentHashMap.newKeySet();
    private final java.security.SecureRandom random = new java.security.SecureRandom();
    private final ExecutorService helper = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "effectful-store-connect");
        t.setDaemon(true);
        return t;
    });

    PgConnections(String url, String user, String password, long timeoutMillis, int size) {
        this.url = url;
        this.timeoutMillis = timeoutMillis;
        this.slots = new Semaphore(size, true);
        this.props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        int seconds = (int) Math.max(1, (timeoutMillis + 999) / 1000);
        props.setProperty("connectTimeout", Integer.toString(seconds));
        props.setProperty("socketTimeout", Integer.toString(seconds));
        props.setProperty("tcpKeepAlive", "true");
        props.setProperty("ApplicationName", "effectful-agent");
    }

    /** A connection in autocommit mode whose reads time out at the deadline (or the store timeout). */
    Connection borrow(long deadlineNanos) throws SQLException {
        long left = deadlineNanos - System.nanoTime();
        try {
            if (!slots.tryAcquire(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                throw new SQLTimeoutException("every connection to the store is busy");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLTimeoutException("interrupted while waiting for a connection to the store");
        }
        try {
            Connection c = idle.pollFirst();
            if (c == null) {
                c = open(deadlineNanos);
            }
            int ms = (int) Math.max(1, Math.min(timeoutMillis, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
            c.setNetworkTimeout(helper, ms);
            return c;
        } catch (SQLException | RuntimeException e) {
            slots.release();
            throw e;
        }
    }

    private Connection open(long deadlineNanos) throws SQLException {
        String session = "effectful-agent " + Long.toHexString(random.nextLong());
        Properties mine = new Properties();
        mine.putAll(props);
        mine.setProperty("ApplicationName", session);
        CompletableFuture<Connection> f = CompletableFuture.supplyAsync(() -> {
            try {
                Connection c = driver.connect(url, mine);
                if (c == null) {
                    throw new IllegalStateException("the PostgreSQL driver does not accept " + url);
                }
                c.setAutoCommit(true);
                names.put(c, session);
                return c;
            } catch (SQLException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, helper);
        long wait = Math.min(TimeUnit.MILLISECONDS.toNanos(timeoutMillis), deadlineNanos - System.nanoTime());
        try {
            return f.get(Math.max(0, wait), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.thenAccept(this::closeQuietly); // arrives too late for this call: not leaked
            throw new SQLTimeoutException("no connection to the store within " + TimeUnit.NANOSECONDS.toMillis(wait) + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.thenAccept(this::closeQuietly);
            throw new SQLTimeoutException("interrupted while connecting to the store");
        } catch (ExecutionException e) {
            Throwable c = e.getCause() instanceof java.util.concurrent.CompletionException ce ? ce.getCause() : e.getCause();
            if (c instanceof SQLException se) {
                throw se;
            }
            throw new SQLException(String.valueOf(c), "08001", c);
        }
    }

    /** Work on one borrowed connection. */
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Every round trip goes through here: a connection borrowed until the deadline, given back after work
     * that succeeded and discarded (with every idle one) after any failure, as it may be dead.
     */
    <T> T withConnection(long deadlineNanos, Work<T> work) throws SQLException {
        Connection c = borrow(deadlineNanos);
        boolean healthy = false;
        try {
            T t = work.run(c);
            healthy = true;
            return t;
        } finally {
            if (healthy) {
                giveBack(c);
            } else {
                discard(c);
            }
        }
    }

    void giveBack(Connection c) {
        idle.offerFirst(c);
        slots.release();
    }

    /**
     * A connection that failed is closed, and so is every idle one: after a server restart they
     * are all dead, and finding that out one call at a time would refuse calls needlessly.
     */
    void discard(Connection c) {
        String session = names.get(c);
        if (session != null) {
            suspects.add(session); // added before the close: a fence never misses it
        }
        closeQuietly(c);
        slots.release();
        Connection old;
        while ((old = idle.pollFirst()) != null) {
            closeQuietly(old);
        }
    }

    /** Whether some connection was given up on since the last successful {@link #fence}. */
    boolean hasSuspects() {
        return !suspects.isEmpty();
    }

    /**
     * Ends the server sessions of the connections given up on and waits, until the deadline, for
     * them to be gone: after it returns, no statement this process sent before can still commit.
     * Sessions of the same user may be terminated by it, so this needs no extra privilege.
     */
    void fence(Connection c, long deadlineNanos) throws SQLException {
        if (suspects.isEmpty()) {
            return;
        }
        String[] gaveUp = suspects.toArray(String[]::new);
        long pause = 2;
        try (PreparedStatement ps = c.prepareStatement("SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE application_name = ANY (?) AND pid <> pg_backend_pid()")) {
            ps.setArray(1, c.createArrayOf("text", gaveUp));
            while (true) {
                boolean running;
                try (ResultSet rs = ps.executeQuery()) {
                    running = rs.next();
                }
                if (!running) {
                    break;
                }
                if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause) > deadlineNanos) {
                    throw new SQLTimeoutException("a session this process gave up on is still running on the server");
                }
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLTimeoutException("interrupted while ending a session this process gave up on");
                }
                pause = Math.min(pause * 2, 50);
            }
        }
        for (String s : gaveUp) {
            suspects.remove(s);
        }
    }

    private void closeQuietly(Connection c) {
        names.remove(c);
        try {
            c.close();
        } catch (SQLException | RuntimeException ignored) {
            // already broken; nothing to give back
        }
    }

    @Override
    public void close() {
        Connection c;
        while ((c = idle.pollFirst()) != null) {
            closeQuietly(c);
        }
        helper.shutdownNow();
    }

    /** Rolls back a failed transaction; a failure to is ignored, since the caller discards the connection. */
    static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is discarded by the caller
        }
    }
}

package dev.effectful.store.postgres;

import dev.effectful.core.keys.FleetKeySource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * The fleet's one fingerprint key, in the table {@code effectful_fleet_key} (one row). The first
 * host that needs it inserts its own journal's secret; every later host reads that row. The table
 * is created (if missing) and the row inserted in one transaction under an advisory lock, so hosts
 * starting at once agree on exactly one key. Anyone who can read the store's tables can read the
 * key; they can read the results there too (docs/KEYS.md).
 */
final class FleetKeyStore implements FleetKeySource {

    /** Arbitrary but fixed, and not the schema migration's: the lock hosts take while agreeing. */
    private static final long LOCK = 0x4566666b65796b31L;

    private final PostgresSettings cfg;

    FleetKeyStore(PostgresSettings cfg) {
        this.cfg = cfg;
    }

    @Override
    public byte[] agree(byte[] candidate) throws SQLException {
        long timeout = cfg.timeout().toMillis();
        try (PgConnections db = new PgConnections(cfg.url(), cfg.user(), cfg.password(), timeout, 1)) {
            return db.withConnection(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout), c -> {
                try {
                    c.setAutoCommit(false);
                    byte[] key = agree(c, candidate);
                    c.commit();
                    return key;
                } catch (SQLException | RuntimeException e) {
                    PgConnections.rollbackQuietly(c);
                    throw e;
                }
            });
        }
    }

    /** Under the fleet's lock: the table made if need be, the candidate inserted unless a key is there, the key read. */
    private static byte[] agree(Connection c, byte[] candidate) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
            st.execute("CREATE TABLE IF NOT EXISTS effectful_fleet_key (id integer PRIMARY KEY CHECK (id = 1),"
                    + " secret bytea NOT NULL, created_by text, created_at timestamptz NOT NULL DEFAULT now())");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO effectful_fleet_key (id, secret, created_by)"
                + " VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING")) {
            ps.setBytes(1, candidate);
            ps.setString(2, HostName.get());
            ps.executeUpdate();
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT secret FROM effectful_fleet_key WHERE id = 1")) {
            if (!rs.next()) {
                throw new SQLException("effectful_fleet_key has no row after the insert");
            }
            return rs.getBytes(1);
        }
    }

    @Override
    public String describe() {
        return "the store's table effectful_fleet_key (" + cfg.safeUrl() + ")";
    }
}

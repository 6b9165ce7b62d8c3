package dev.effectful.store.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The shared store's tables, created and migrated by the agent itself: an ordered list of
 * migrations, each applied once, in one transaction under an advisory lock so that a fleet
 * starting all at once migrates exactly once. Append new migrations; never edit an applied one.
 * docs/FLEET.md describes the resulting schema.
 */
final class FleetSchema {

    /** Arbitrary but fixed: the advisory lock every agent takes while migrating. */
    private static final long LOCK = 0x4566666563746675L;

    record Migration(int version, List<String> statements) {
    }

    static final List<Migration> MIGRATIONS = List.of(
            new Migration(1, List.of(
                    """
                    CREATE TABLE IF NOT EXISTS effectful_intents (
                        intent_key        text PRIMARY KEY,
                        task              text,
                        call              text,
                        kind              text,
                        phase             text NOT NULL,
                        attempts          integer NOT NULL DEFAULT 0,
                        effect_applied    text,
                        retry_after_until bigint NOT NULL DEFAULT 0,
                        result            text,
                        result_stored     boolean NOT NULL DEFAULT false,
                        message           text,
                        host              text,
                        pid               bigint,
                        owner             text,
                        lease_until       timestamptz,
                        updated_at        timestamptz NOT NULL DEFAULT now()
                    )""",
                    "CREATE INDEX IF NOT EXISTS effectful_intents_task ON effectful_intents (task)",
                    "CREATE INDEX IF NOT EXISTS effectful_intents_updated ON effectful_intents (updated_at)",
                    "CREATE INDEX IF NOT EXISTS effectful_intents_owner ON effectful_intents (owner)"
                            + " WHERE lease_until IS NOT NULL")),
            // which claim wrote the row: a claim its host gave up on (the store did not answer in
            // time) may still be committed afterwards, and that host withdraws exactly that claim
            new Migration(2, List.of("ALTER TABLE effectful_intents ADD COLUMN IF NOT EXISTS claim text")),
            // who gave an approval verdict through the store (journal approve|deny --store postgres); the note is
            // the row's message (and, for a denial, its result: what every host's repeat is refused with)
            new Migration(3, List.of("ALTER TABLE effectful_intents ADD COLUMN IF NOT EXISTS approval_by text")));

    static int latest() {
        return MIGRATIONS.get(MIGRATIONS.size() - 1).version();
    }

    /** Brings the schema to {@link #latest()}; returns the version found before. Idempotent. */
    static int migrate(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
            st.execute("CREATE TABLE IF NOT EXISTS effectful_schema (version integer PRIMARY KEY,"
                    + " applied_at timestamptz NOT NULL DEFAULT now())");
            int found;
            try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM effectful_schema")) {
                rs.next();
                found = rs.getInt(1);
            }
            for (Migration m : MIGRATIONS) {
                if (m.version() > found) {
                    for (String sql : m.statements()) {
                        st.execute(sql);
                    }
                    st.execute("INSERT INTO effectful_schema (version) VALUES (" + m.version() + ")");
                }
            }
            c.commit();
            return found;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}

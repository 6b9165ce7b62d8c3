package dev.effectful.store.postgres;

import java.sql.SQLException;

/**
 * What a PostgreSQL error says about waiting: most (connection refused, timeouts, a restart) pass,
 * but a server that answers and refuses this host's settings (a wrong password, an unknown user or
 * database) refuses every later attempt too, until someone fixes the configuration.
 */
final class PgErrors {

    private PgErrors() {
    }

    /**
     * SQLSTATE class 28 (invalid authorization specification: wrong password, no such role, no
     * pg_hba entry) and 3D000 (invalid catalog name: no such database), anywhere in the chain.
     */
    static boolean refusesSettings(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                for (SQLException s = sql; s != null; s = s.getNextException()) {
                    String state = s.getSQLState();
                    if (state != null && (state.startsWith("28") || state.equals("3D000"))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}

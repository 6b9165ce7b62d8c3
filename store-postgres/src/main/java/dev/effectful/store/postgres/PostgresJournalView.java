package dev.effectful.store.postgres;

import dev.effectful.core.journal.Verdict;
import dev.effectful.core.reentry.Phase;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.core.store.StoreView;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The journal CLI's view of the shared store ({@code journal --store postgres ...}): the fleet's
 * tasks, its unresolved intents, and a person's resolution, which every host then obeys.
 */
public final class PostgresJournalView implements StoreView {

    private final PgConnections db;
    private final long timeoutMillis;

    private PostgresJournalView(PostgresSettings cfg) {
        this.timeoutMillis = Math.max(cfg.timeout().toMillis(), 5_000);
        this.db = new PgConnections(cfg.url(), cfg.user(), cfg.password(), timeoutMillis, 1);
    }

    public static PostgresJournalView open(PostgresSettings cfg) {
        return new PostgresJournalView(cfg);
    }

    @Override
    public List<TaskLine> tasks() {
        return query("SELECT task, count(*), coalesce(sum(attempts), 0),"
                + " count(*) FILTER (WHERE phase IN " + PhaseWords.SETTLED_OK + "),"
                + " count(*) FILTER (WHERE phase IN " + PhaseWords.UNRESOLVED + "), max(updated_at)"
                + " FROM effectful_intents GROUP BY task ORDER BY max(updated_at) DESC", null, rs -> new TaskLine(
                rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getInt(5),
                rs.getTimestamp(6).toInstant()));
    }

    @Override
    public List<Unresolved> unresolved() {
        return query("SELECT intent_key, task, call, kind, phase, attempts, host, coalesce(pid, 0),"
                + " coalesce(lease_until > now(), false), updated_at FROM effectful_intents"
                + " WHERE phase IN " + PhaseWords.UNRESOLVED + " ORDER BY updated_at", null, rs -> new Unresolved(
                rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getInt(6),
                rs.getString(7), rs.getLong(8), rs.getBoolean(9), rs.getTimestamp(10).toInstant()));
    }

    @Override
    public List<IntentRow> show(String id) {
        // a key prefix as tables print it (six or more hex digits), never a LIKE pattern of the user's
        String prefix = id.matches("[0-9a-f]{6,}") ? id + "%" : null;
        try {
            return queryOrThrow("SELECT intent_key, task, call, kind, phase, attempts, effect_applied,"
                    + " CASE WHEN result_stored THEN result END, message, host, coalesce(pid, 0), claim, lease_until,"
                    + " coalesce(lease_until > now(), false), approval_by, updated_at FROM effectful_intents"
                    + " WHERE intent_key = ? OR task = ? OR intent_key LIKE ? ORDER BY updated_at, intent_key",
                    ps -> {
                        ps.setString(1, id);
                        ps.setString(2, id);
                        ps.setString(3, prefix);
                    }, rs -> new IntentRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getInt(6), rs.getString(7), rs.getString(8), rs.getString(9),
                            rs.getString(10), rs.getLong(11), rs.getString(12),
                            rs.getTimestamp(13) == null ? null : rs.getTimestamp(13).toInstant(), rs.getBoolean(14),
                            rs.getString(15), rs.getTimestamp(16).toInstant()));
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    @Override
    public Resolution resolve(String intentKey, boolean applied, String note, String resultJson) {
        String result = applied ? resultJson : null;
        return decide(intentKey, true, "UPDATE effectful_intents SET phase = ?, effect_applied = ?,"
                + " result = ?, result_stored = ?, message = ?, lease_until = NULL, updated_at = now()"
                + " WHERE intent_key = ? AND NOT coalesce(lease_until > now(), false)"
                // only an intent still waiting for a person: of two verdicts at once the second finds it decided
                + " AND phase IN " + PhaseWords.UNRESOLVED, ps -> {
                    ps.setString(1, (applied ? Phase.RESOLVED_APPLIED : Phase.RESOLVED_NOT_APPLIED).word());
                    ps.setString(2, applied ? "yes" : "no");
                    ps.setString(3, result);
                    ps.setBoolean(4, result != null);
                    ps.setString(5, note == null ? "resolved by a person" : note);
                    ps.setString(6, intentKey);
                });
    }

    @Override
    public List<PendingApproval> approvals() {
        return query("SELECT intent_key, task, call, kind, host, retry_after_until FROM effectful_intents"
                + " WHERE phase = " + PhaseWords.AWAITING_APPROVAL + " ORDER BY retry_after_until", null, rs -> new PendingApproval(
                rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                java.time.Instant.ofEpochMilli(rs.getLong(6))));
    }

    @Override
    public Resolution approve(String intentKey, Verdict verdict, String by, String note) {
        boolean approved = verdict.letsBodyRun();
        // only a request still waiting: a verdict never overturns another, nor an expiry
        return decide(intentKey, false, "UPDATE effectful_intents SET phase = ?,"
                + " effect_applied = CASE WHEN ? THEN effect_applied ELSE 'no' END, result = ?, result_stored = ?,"
                + " message = ?, approval_by = ?, retry_after_until = 0, updated_at = now()"
                + " WHERE intent_key = ? AND phase = " + PhaseWords.AWAITING_APPROVAL, ps -> {
                    ps.setString(1, Phase.after(verdict).word());
                    ps.setBoolean(2, approved);
                    ps.setString(3, approved ? null : note);
                    ps.setBoolean(4, !approved && note != null);
                    ps.setString(5, note);
                    ps.setString(6, by);
                    ps.setString(7, intentKey);
                });
    }

    /**
     * A person's verdict on the fleet's row of {@code intentKey}: {@code update}, bound by {@code binder}, changes
     * the row only while it still waits for that verdict. When it changes nothing, the row as it stands says why:
     * none, still held by a running call (only where {@code leaseCounts}), or decided otherwise already.
     */
    private Resolution decide(String intentKey, boolean leaseCounts, String update, Binder binder) {
        try {
            return db.withConnection(deadline(), c -> {
                FleetSchema.migrate(c);
                try (PreparedStatement ps = c.prepareStatement(update)) {
                    binder.bind(ps);
                    if (ps.executeUpdate() == 1) {
                        return Resolution.RESOLVED;
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT coalesce(lease_until > now(), false)"
                        + " FROM effectful_intents WHERE intent_key = ?")) {
                    ps.setString(1, intentKey);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            return Resolution.NO_SUCH_INTENT;
                        }
                        return leaseCounts && rs.getBoolean(1) ? Resolution.STILL_RUNNING : Resolution.NOT_AWAITING_APPROVAL;
                    }
                }
            });
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    private interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> List<T> query(String sql, String arg, Row<T> row) {
        try {
            return queryOrThrow(sql, arg, row);
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    /** The CLI shows the driver's own words: they say what is wrong (refused, authentication, timeout). */
    private static StoreUnavailableException unavailable(SQLException e) {
        return new StoreUnavailableException(e.getMessage(), e, PgErrors.refusesSettings(e));
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private <T> List<T> queryOrThrow(String sql, String arg, Row<T> row) throws SQLException {
        return queryOrThrow(sql, ps -> {
            if (arg != null) {
                ps.setString(1, arg);
            }
        }, row);
    }

    private <T> List<T> queryOrThrow(String sql, Binder binder, Row<T> row) throws SQLException {
        return db.withConnection(deadline(), c -> {
            FleetSchema.migrate(c);
            List<T> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                binder.bind(ps);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(row.read(rs));
                    }
                }
            }
            return out;
        });
    }

    private long deadline() {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    @Override
    public void close() {
        db.close();
    }
}

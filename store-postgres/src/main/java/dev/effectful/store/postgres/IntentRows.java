package dev.effectful.store.postgres;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.IntentStore.IntentMeta;
import dev.effectful.core.reentry.Phase;
import dev.effectful.core.reentry.StateTransitions;
import dev.effectful.store.postgres.PostgresIntentStore.Holder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Each change the fleet makes to a row of {@code effectful_intents}, as its SQL and its parameters: a claim,
 * an approval request, the state a journal record leads to, a lease renewed, a claim withdrawn or given up.
 * {@link PostgresIntentStore} decides when each is sent and what an answer means; this class only says what
 * the statement is, so the SQL of the fleet's table is in one place.
 */
final class IntentRows {

    /** A row "intended, attempt n, held by this process": the claim and the intent record bind it alike. */
    private static final String INSERT_INTENT = "INSERT INTO effectful_intents (intent_key, task, call, kind, phase,"
            + " attempts, host, pid, owner, lease_until, claim, updated_at) VALUES (?, ?, ?, ?, " + PhaseWords.INTENDED + ", ?, ?, ?, ?,"
            + " now() + ? * interval '1 millisecond', ?, now())";
    private static final String CLAIM_NEW = INSERT_INTENT + " ON CONFLICT (intent_key) DO NOTHING";
    /**
     * The one approval request of an intent, fleet-wide: the host whose insert creates the row journals the
     * request; every other host finds the row and waits on it. {@code retry_after_until} holds when it was
     * requested (expiry counts from it), as in {@code IntentState}.
     */
    private static final String REQUEST_APPROVAL = "INSERT INTO effectful_intents (intent_key, task, call, kind, phase,"
            + " attempts, retry_after_until, host, pid, updated_at) VALUES (?, ?, ?, ?, " + PhaseWords.AWAITING_APPROVAL + ", 0, ?,"
            + " ?, ?,"
            + " now()) ON CONFLICT (intent_key) DO NOTHING";
    static final String SELECT_LOCKED = "SELECT phase, attempts, effect_applied, retry_after_until, result,"
            + " result_stored, owner, host, pid, coalesce(lease_until > now(), false),"
            + " coalesce((extract(epoch FROM (lease_until - now())) * 1000)::bigint, 0),"
            + " (extract(epoch FROM updated_at) * 1000)::bigint FROM effectful_intents WHERE intent_key = ? FOR UPDATE";
    private static final String CLAIM_RUN = "UPDATE effectful_intents SET phase = " + PhaseWords.INTENDED + ", attempts = ?,"
            + " retry_after_until = 0, host = ?, pid = ?, owner = ?, lease_until = now() + ? * interval '1 millisecond',"
            + " claim = ?, updated_at = now() WHERE intent_key = ?";
    private static final String CLAIM_PROBE = "UPDATE effectful_intents SET host = ?, pid = ?, owner = ?,"
            + " lease_until = now() + ? * interval '1 millisecond', claim = ?, updated_at = now() WHERE intent_key = ?";
    private static final String WRITE_INTENT = INSERT_INTENT + " ON CONFLICT (intent_key) DO UPDATE SET phase = "
            + PhaseWords.INTENDED + ","
            + " attempts = greatest(effectful_intents.attempts, excluded.attempts), retry_after_until = 0,"
            + " host = excluded.host, pid = excluded.pid, owner = excluded.owner, lease_until = excluded.lease_until,"
            + " claim = excluded.claim, updated_at = now()";
    /**
     * Outcomes are committed without waiting for the server's disk (synchronous_commit off for this
     * one transaction): the claim before the body is what must survive a database crash. An
     * outcome lost that way leaves "intended" under a lease nobody renews, which lapses into the
     * probe: the safe side. It halves what a call costs on a server whose fsync is slow.
     */
    private static final String WRITE_STATE = "INSERT INTO effectful_intents (intent_key, task, call, kind, phase,"
            + " attempts, effect_applied, retry_after_until, result, result_stored, message, updated_at)"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now()"
            + " FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit"
            + " ON CONFLICT (intent_key) DO UPDATE SET"
            + " phase = excluded.phase, attempts = greatest(effectful_intents.attempts, excluded.attempts),"
            + " effect_applied = coalesce(excluded.effect_applied, effectful_intents.effect_applied),"
            + " retry_after_until = excluded.retry_after_until, result = excluded.result,"
            + " result_stored = excluded.result_stored, message = excluded.message, updated_at = now(),"
            + " lease_until = CASE WHEN ? OR effectful_intents.owner IS DISTINCT FROM ? THEN effectful_intents.lease_until"
            + " ELSE NULL END";
    private static final String ABANDON = "UPDATE effectful_intents SET phase = " + PhaseWords.RETRYABLE + ","
            + " effect_applied = 'no', lease_until = NULL, message = ?, updated_at = now() WHERE intent_key = ?"
            + " AND owner = ? AND attempts = ? AND phase = " + PhaseWords.INTENDED;
    /**
     * A claim this process gave up on (the store did not answer in time, so the call was refused,
     * effect no) that the store committed anyway: the row says what the local journal says, and
     * the next call of the intent, on any host, runs. Only that very claim, and only while nothing
     * came after it; sent after {@link PgConnections#fence}, so the late commit cannot follow it.
     */
    static final String WITHDRAW = "UPDATE effectful_intents SET phase = " + PhaseWords.RETRYABLE + ","
            + " effect_applied = 'no', retry_after_until = 0, lease_until = NULL, message = ?, updated_at = now()"
            + " WHERE intent_key = ? AND claim = ? AND phase = " + PhaseWords.INTENDED;
    private static final String RENEW = "UPDATE effectful_intents SET lease_until = now() + ? * interval '1 millisecond'"
            + " WHERE owner = ? AND lease_until IS NOT NULL AND intent_key = ANY (?)";
    private static final String EXPIRE = "DELETE FROM effectful_intents WHERE updated_at < now() - ? * interval"
            + " '1 millisecond' AND phase NOT IN " + PhaseWords.UNRESOLVED + " AND lease_until IS NULL";

    private final Holder me;
    private final long leaseMillis;
    /** Numbers this process's claims: owner + number names one claim, fleet-wide. */
    private final AtomicLong claims = new AtomicLong();

    IntentRows(Holder me, long leaseMillis) {
        this.me = me;
        this.leaseMillis = leaseMillis;
    }

    /** A name for one claim of this process, unique fleet-wide. */
    String newClaim() {
        return me.owner() + ":" + claims.incrementAndGet();
    }

    /** The row a record of this host's journal leads to (a record the fleet shares). */
    void writeRecord(Connection c, JournalRecord r) throws SQLException {
        if (r.type() == RecordType.INTENT) {
            writeIntent(c, r, newClaim());
            return;
        }
        if (r.type() == RecordType.APPROVAL_REQUESTED) {
            // the claim made the row; rewriting it could undo a verdict given since
            requestApproval(c, r.intentKey(), new IntentMeta(r.task(), r.call(), r.kind() == null ? null : r.kind().word()),
                    r.started());
            return;
        }
        // the state this one record leads to, by the same transitions the local index uses
        writeState(c, r);
    }

    /** A new key's row, "intended", held by this process: 1 when this insert made it, 0 when a row was there. */
    int claimNew(Connection c, String key, IntentMeta meta, int attempt, String claim) throws SQLException {
        return insertIntent(c, CLAIM_NEW, key, meta.task(), meta.call(), meta.kind(), attempt, claim);
    }

    /** The row an intent record of this host's journal says: "intended", held by this process, whatever was there. */
    private void writeIntent(Connection c, JournalRecord r, String claim) throws SQLException {
        insertIntent(c, WRITE_INTENT, r.intentKey(), r.task(), r.call(), r.kind() == null ? null : r.kind().word(),
                r.attempt(), claim);
    }

    /** True when this call created the intent's approval request row (no other host had). */
    boolean requestApproval(Connection c, String key, IntentMeta meta, long requestedAt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(REQUEST_APPROVAL)) {
            ps.setString(1, key);
            ps.setString(2, meta == null ? null : meta.task());
            ps.setString(3, meta == null ? null : meta.call());
            ps.setString(4, meta == null ? null : meta.kind());
            ps.setLong(5, requestedAt);
            ps.setString(6, me.host());
            ps.setLong(7, me.pid());
            return ps.executeUpdate() == 1;
        }
    }

    /** {@link #CLAIM_NEW} or {@link #WRITE_INTENT}: the same row, held by this process. */
    private int insertIntent(Connection c, String sql, String key, String task, String call, String kind, int attempt,
                             String claim) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            ps.setString(2, task);
            ps.setString(3, call);
            ps.setString(4, kind);
            ps.setInt(5, attempt);
            ps.setString(6, me.host());
            ps.setLong(7, me.pid());
            ps.setString(8, me.owner());
            ps.setLong(9, leaseMillis);
            ps.setString(10, claim);
            return ps.executeUpdate();
        }
    }

    /** A known key's row, locked by the caller's transaction, taken for a run of {@code attempt}. */
    void claimRun(Connection c, String key, int attempt, String claim) throws SQLException {
        claim(c, CLAIM_RUN, attempt, key, claim);
    }

    /** A known key's row, locked by the caller's transaction, leased to this process for a probe. */
    void claimProbe(Connection c, String key, String claim) throws SQLException {
        claim(c, CLAIM_PROBE, null, key, claim);
    }

    /** Sets a claim's parameters in their order: the run's attempt if any, who holds the lease and for how long, the claim, the key. */
    private void claim(Connection c, String sql, Integer attempt, String key, String claim) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (attempt != null) {
                ps.setInt(i++, attempt);
            }
            ps.setString(i++, me.host());
            ps.setLong(i++, me.pid());
            ps.setString(i++, me.owner());
            ps.setLong(i++, leaseMillis);
            ps.setString(i++, claim);
            ps.setString(i, key);
            ps.executeUpdate();
        }
    }

    /** The state one record (not an intent, not an approval request) leads to, by the local index's own transitions. */
    private void writeState(Connection c, JournalRecord r) throws SQLException {
        IntentState s = StateTransitions.next(null, -1, r);
        boolean refusedForGood = s.phase().verdict() != null && !s.phase().verdict().letsBodyRun();
        boolean stored = s.phase().settledOk() && r.result() != null
                || refusedForGood && r.note() != null;
        try (PreparedStatement ps = c.prepareStatement(WRITE_STATE)) {
            ps.setString(1, r.intentKey());
            ps.setString(2, r.task());
            ps.setString(3, r.call());
            ps.setString(4, r.kind() == null ? null : r.kind().word());
            ps.setString(5, s.phase().word());
            ps.setInt(6, s.attempts());
            if (s.effectApplied() == null) {
                ps.setNull(7, Types.VARCHAR);
            } else {
                ps.setString(7, s.effectApplied().word());
            }
            ps.setLong(8, s.retryAfterUntil());
            // a denial's note is what every host's repeat is refused with
            ps.setString(9, stored ? (refusedForGood ? r.note() : r.result()) : null);
            ps.setBoolean(10, stored);
            ps.setString(11, r.message());
            ps.setBoolean(12, s.phase() == Phase.PROBED_ABSENT); // the prober runs the body next: keep its lease
            ps.setString(13, me.owner());
            ps.executeUpdate();
        }
    }

    /** {@link #WITHDRAW}: how many rows it changed (1 when the late claim had been committed). */
    int withdraw(Connection c, String key, String claim) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(WITHDRAW)) {
            ps.setString(1, "refused on " + me.host() + ": the store did not answer the claim in time, so the call was"
                    + " not made; the claim it committed late is withdrawn");
            ps.setString(2, key);
            ps.setString(3, claim);
            return ps.executeUpdate();
        }
    }

    /** A claim of this process whose intent could not be journaled: retryable, effect no, lease released. */
    int abandon(Connection c, String key, int attempt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ABANDON)) {
            ps.setString(1, "claimed but not run: the intent could not be journaled on " + me.host());
            ps.setString(2, key);
            ps.setString(3, me.owner());
            ps.setInt(4, attempt);
            return ps.executeUpdate();
        }
    }

    /** Renews this process's leases on {@code keys}. */
    void renew(Connection c, Object[] keys) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(RENEW)) {
            ps.setLong(1, leaseMillis);
            ps.setString(2, me.owner());
            ps.setArray(3, c.createArrayOf("text", keys));
            ps.executeUpdate();
        }
    }

    /** Deletes settled rows unchanged for longer than the retention; how many. */
    int expire(Connection c, long retentionMillis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EXPIRE)) {
            ps.setLong(1, retentionMillis);
            return ps.executeUpdate();
        }
    }
}

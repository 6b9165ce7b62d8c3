package dev.effectful.store.postgres;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.LocalIntentIndex;
import dev.effectful.core.reentry.Phase;
import dev.effectful.core.reentry.StateTransitions;
import dev.effectful.core.reentry.StoreUnavailableException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Fleet mode: intents decided in one PostgreSQL table shared by every replica, so a task that
 * moves to another host after a crash is never repeated there.
 *
 * <ul>
 *   <li>A new key is claimed by one {@code INSERT ... ON CONFLICT DO NOTHING} carrying this
 *       process's host, pid and a lease: of two hosts issuing it at once, exactly one runs.</li>
 *   <li>A known key is decided under {@code SELECT ... FOR UPDATE} by the same {@code ReentryRules}
 *       as on one host; a Run or Probe takes the lease in the same transaction.</li>
 *   <li>A live lease of another process means its call is running: wait (bounded) and decide
 *       again, so the loser of a race answers with the winner's stored result.</li>
 *   <li>Leases are renewed every third of their length while this process lives; a host killed
 *       mid-call stops renewing, its lease lapses, and its intent is "intended with no outcome":
 *       the next host probes it.</li>
 *   <li>Outcome, probe and resolution records update the row. The local journal keeps every
 *       record first (each host's write-ahead log); a record the store could not take is kept in
 *       order and written before this process decides anything again.</li>
 * </ul>
 * This process's own view ({@link #get}) is the local index, so READ calls never wait on the database.
 */
public final class PostgresIntentStore implements IntentStore, AutoCloseable {

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
    private static final String SELECT_LOCKED = "SELECT phase, attempts, effect_applied, retry_after_until, result,"
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
    private static final String WITHDRAW = "UPDATE effectful_intents SET phase = " + PhaseWords.RETRYABLE + ","
            + " effect_applied = 'no', retry_after_until = 0, lease_until = NULL, message = ?, updated_at = now()"
            + " WHERE intent_key = ? AND claim = ? AND phase = " + PhaseWords.INTENDED;
    private static final String RENEW = "UPDATE effectful_intents SET lease_until = now() + ? * interval '1 millisecond'"
            + " WHERE owner = ? AND lease_until IS NOT NULL AND intent_key = ANY (?)";
    private static final String EXPIRE = "DELETE FROM effectful_intents WHERE updated_at < now() - ? * interval"
            + " '1 millisecond' AND phase NOT IN " + PhaseWords.UNRESOLVED + " AND lease_until IS NULL";

    private final LocalIntentIndex local;
    private final PgConnections db;
    private final String name;
    private final Holder me;
    private final long leaseMillis;
    private final long timeoutMillis;
    private final long retentionMillis;
    /** Keys whose lease this process holds and renews, with the attempt it runs or probes. */
    private final ConcurrentHashMap<String, Integer> held = new ConcurrentHashMap<>();
    /** Claims whose row already says "intended, attempt n": the intent record need not be written again. */
    private final ConcurrentHashMap<String, Integer> claimedRow = new ConcurrentHashMap<>();
    /** What the store could not take yet, in order: journal records, and claims to withdraw. */
    private final ConcurrentLinkedQueue<Owed> pending = new ConcurrentLinkedQueue<>();
    /** Numbers this process's claims: owner + number names one claim, fleet-wide. */
    private final java.util.concurrent.atomic.AtomicLong claims = new java.util.concurrent.atomic.AtomicLong();
    private final Object flushing = new Object();
    private final ScheduledExecutorService timer;
    private volatile boolean migrated;
    private volatile long nextExpiry;

    /** This process as the row names it: host and pid for people, owner (with a random part) for matching. */
    record Holder(String host, long pid, String owner) {
        static Holder current() {
            String host = HostName.get();
            long pid = ProcessHandle.current().pid();
            return new Holder(host, pid, host + ":" + pid + ":" + Long.toHexString(new java.security.SecureRandom().nextLong()));
        }
    }

    /** Something the store still has to be told, in the order it happened here. */
    private sealed interface Owed {
    }

    /** A record of the local journal. */
    private record Write(JournalRecord record) implements Owed {
    }

    /** A claim sent without an answer, for a call that was then refused: see {@link #WITHDRAW}. */
    private record Withdraw(String intentKey, String claim) implements Owed {
    }

    /**
     * The run claim of one decision that was sent and not yet answered: if the round trip fails,
     * the store may still commit it, and it must then be withdrawn.
     */
    private static final class Unanswered {
        String claim;
    }

    private PostgresIntentStore(PostgresSettings cfg, Duration retention, LocalIntentIndex local) {
        this.local = local;
        this.leaseMillis = cfg.lease().toMillis();
        this.timeoutMillis = cfg.timeout().toMillis();
        this.retentionMillis = retention.toMillis();
        this.name = "intent store postgres " + cfg.safeUrl();
        this.me = Holder.current();
        this.db = new PgConnections(cfg.url(), cfg.user(), cfg.password(), timeoutMillis, 8);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "effectful-store-lease");
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(50, leaseMillis / 3);
        timer.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * Opens the shared store over this host's local index (already rebuilt from its journal). The
     * database need not be up: until it is, effectful calls are refused and the schema is migrated
     * on first contact.
     */
    public static PostgresIntentStore open(PostgresSettings cfg, Duration retention, LocalIntentIndex local) {
        PostgresIntentStore s = new PostgresIntentStore(cfg, retention, local);
        s.timer.execute(s::tick);
        return s;
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public Optional<IntentState> get(String intentKey) {
        return local.get(intentKey);
    }

    @Override
    public Decision decideAndClaim(String key, IntentMeta meta, Rule rule, long budgetNanos) {
        long now = System.nanoTime();
        long waitDeadline = now + Math.max(0, Math.min(budgetNanos, TimeUnit.DAYS.toNanos(1)));
        long pause = 10;
        while (true) {
            long start = System.nanoTime();
            // each round trip is bounded by the store timeout and by what is left of the budget (a
            // poll that starts just before the budget ends gets a few more milliseconds to finish)
            long askDeadline = Math.min(start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis),
                    Math.max(waitDeadline, start + TimeUnit.MILLISECONDS.toNanos(Math.min(timeoutMillis, 100))));
            Decision d = once(key, meta, rule, askDeadline);
            if (!(d instanceof Decision.Elsewhere e)) {
                return d;
            }
            long left = waitDeadline - System.nanoTime();
            if (left <= 0) {
                return e;
            }
            long sleep = Math.min(Math.min(pause, TimeUnit.NANOSECONDS.toMillis(left) + 1), Math.max(5, e.leaseLeftMillis() + 5));
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return e;
            }
            pause = Math.min(pause * 2, 200);
        }
    }

    private Decision once(String key, IntentMeta meta, Rule rule, long deadline) {
        String claim = me.owner() + ":" + claims.incrementAndGet();
        Unanswered sent = new Unanswered();
        try {
            return withConnection(deadline, c -> {
                prepare(c, deadline);
                for (int round = 0; round < 3; round++) {
                    long now = System.currentTimeMillis();
                    Decision fresh = rule.decide(null, now);
                    if (fresh instanceof Decision.RequestApproval && requestApproval(c, key, meta, now)) {
                        return fresh;
                    }
                    if (fresh instanceof Decision.Run run) {
                        sent.claim = claim;
                        int inserted = insertIntent(c, CLAIM_NEW, key, meta.task(), meta.call(), meta.kind(),
                                run.attempt(), claim);
                        sent.claim = null; // answered: inserted, or someone else's row is there
                        if (inserted == 1) {
                            claimed(key, run.attempt());
                            return run;
                        }
                    }
                    Decision d = decideLocked(c, key, rule, claim, sent);
                    if (d != null) {
                        return d;
                    }
                    // the row vanished between the insert and the lock (retention): claim it afresh
                }
                throw new SQLException("the row of " + key + " kept changing under this call");
            });
        } catch (SQLException e) {
            if (sent.claim == null) {
                throw unavailable(e, "");
            }
            // the call is refused, effect no, yet the claim may still be committed (a frozen server
            // resumes): it is withdrawn before this process writes anything else, so the row never
            // says "attempted" for a call that did not run
            pending.add(new Withdraw(key, sent.claim));
            throw unavailable(e, " (claim " + sent.claim + " left unanswered: it is withdrawn as soon as the store"
                    + " answers, so it never counts as an attempt)");
        }
    }

    /** True when this call created the intent's approval request row (no other host had). */
    private boolean requestApproval(Connection c, String key, IntentMeta meta, long requestedAt) throws SQLException {
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

    /**
     * Whether this host saw the key of the row's latest attempt go out ({@code key_sent} in its own journal).
     * The store holds no such fact: another host's attempt, or one this host did not see leave, counts as a
     * key nobody saw sent, so it is probed or held for a person, never re-run on a guess.
     */
    private boolean keySentHere(String key, IntentState row) {
        IntentState mine = local.get(key).orElse(null);
        return mine != null && mine.keySent() && mine.attempts() == row.attempts() && row.isUnresolved();
    }

    /** Null when the row is gone; else the decision, with the lease taken when it is Run or Probe. */
    private Decision decideLocked(Connection c, String key, Rule rule, String claim, Unanswered sent)
            throws SQLException {
        c.setAutoCommit(false);
        try {
            Decision d;
            try (PreparedStatement ps = c.prepareStatement(SELECT_LOCKED)) {
                ps.setString(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        c.rollback();
                        return null;
                    }
                    if (rs.getBoolean(10) && !me.owner().equals(rs.getString(7))) {
                        c.rollback();
                        return new Decision.Elsewhere("host " + rs.getString(8) + " (pid " + rs.getLong(9) + ")",
                                rs.getLong(11));
                    }
                    String json = rs.getBoolean(6) ? rs.getString(5) : null;
                    IntentState s = new IntentState(phase(rs.getString(1)), rs.getInt(2), Effect.fromWord(rs.getString(3)), rs.getLong(4),
                            -1, rs.getLong(12), json);
                    s = s.withKeySent(keySentHere(key, s));
                    d = rule.decide(s, System.currentTimeMillis());
                }
            }
            if (d instanceof Decision.Run run) {
                try (PreparedStatement ps = c.prepareStatement(CLAIM_RUN)) {
                    ps.setInt(1, run.attempt());
                    ps.setString(2, me.host());
                    ps.setLong(3, me.pid());
                    ps.setString(4, me.owner());
                    ps.setLong(5, leaseMillis);
                    ps.setString(6, claim);
                    ps.setString(7, key);
                    sent.claim = claim;
                    ps.executeUpdate();
                }
            } else if (d instanceof Decision.Probe) {
                try (PreparedStatement ps = c.prepareStatement(CLAIM_PROBE)) {
                    ps.setString(1, me.host());
                    ps.setLong(2, me.pid());
                    ps.setString(3, me.owner());
                    ps.setLong(4, leaseMillis);
                    ps.setString(5, claim);
                    ps.setString(6, key);
                    ps.executeUpdate();
                }
            }
            c.commit();
            sent.claim = null;
            if (d instanceof Decision.Run run) {
                claimed(key, run.attempt());
            } else if (d instanceof Decision.Probe p) {
                held.put(key, p.lastAttempt());
            }
            return d;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the connection is discarded by the caller
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private void claimed(String key, int attempt) {
        held.put(key, attempt);
        claimedRow.put(key, attempt);
    }

    @Override
    public void abandon(String intentKey, int attempt) {
        claimedRow.remove(intentKey);
        held.remove(intentKey);
        try {
            withConnection(storeDeadline(), c -> {
                try (PreparedStatement ps = c.prepareStatement(ABANDON)) {
                    ps.setString(1, "claimed but not run: the intent could not be journaled on " + me.host());
                    ps.setString(2, intentKey);
                    ps.setString(3, me.owner());
                    ps.setInt(4, attempt);
                    return ps.executeUpdate();
                }
            });
        } catch (SQLException e) {
            // the lease lapses on its own; the key is then probed, which is safe
            AgentLog.warnOnce("store-abandon", name + ": could not release a claim that did not run: " + e.getMessage());
        }
    }

    @Override
    public void apply(long index, JournalRecord r) {
        local.apply(index, r);
        if (r.intentKey() == null || r.isRead() || !r.type().sharedWithFleet()) {
            // reads are never deduplicated, dedups and refusals change nothing, and a key_sent is this host's
            // own knowledge (see decideLocked): the fleet need not know them
            return;
        }
        if (r.type() == RecordType.INTENT) {
            held.put(r.intentKey(), r.attempt());
            if (claimedRow.remove(r.intentKey(), r.attempt())) {
                return; // the claim wrote this very state
            }
        } else if (!(r.type() == RecordType.PROBE && r.probe() == ProbeResult.ABSENT)) {
            held.remove(r.intentKey());
        }
        if (pending.isEmpty()) {
            try {
                long deadline = storeDeadline();
                withConnection(deadline, c -> {
                    prepare(c, deadline);
                    write(c, r);
                    return null;
                });
                return;
            } catch (SQLException e) {
                AgentLog.warnOnce("store-pending", name + " unavailable while recording a " + r.type().word()
                        + " (" + e.getMessage() + "): it is in the local journal and is written to the store, in order,"
                        + " before this host decides anything again");
            }
        }
        pending.add(new Write(r));
    }

    /**
     * For a health check: one round trip ({@code SELECT 1}) within the store's timeout; empty when it
     * answered, else why not. The engine's own calls do not wait for it.
     */
    @Override
    public Optional<String> problem() {
        try {
            withConnection(storeDeadline(), c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT 1")) {
                    ps.setQueryTimeout((int) Math.max(1, TimeUnit.MILLISECONDS.toSeconds(timeoutMillis)));
                    ps.executeQuery().close();
                }
                return null;
            });
            return Optional.empty();
        } catch (SQLException | RuntimeException e) {
            return Optional.of("unreachable: " + e.getMessage());
        }
    }

    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Every round trip goes through here: a pooled connection, given back after work that
     * succeeded and discarded (with every idle one) after any failure, as it may be dead.
     */
    private <T> T withConnection(long deadlineNanos, Work<T> work) throws SQLException {
        Connection c = db.borrow(deadlineNanos);
        boolean healthy = false;
        try {
            T t = work.run(c);
            healthy = true;
            return t;
        } finally {
            if (healthy) {
                db.giveBack(c);
            } else {
                db.discard(c);
            }
        }
    }

    private long storeDeadline() {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /** Schema first, then the records still owed to the store: a decision must see them. */
    private void prepare(Connection c, long deadlineNanos) throws SQLException {
        if (!migrated) {
            synchronized (this) {
                if (!migrated) {
                    int before = FleetSchema.migrate(c);
                    if (before < FleetSchema.latest()) {
                        AgentLog.info("effectful " + name + ": schema migrated from version " + before + " to "
                                + FleetSchema.latest());
                    }
                    migrated = true;
                }
            }
        }
        // a statement given up on may still commit: let it land (or not) before anything is
        // written or decided, so that what follows is read against its final effect
        db.fence(c, deadlineNanos);
        if (!pending.isEmpty()) {
            synchronized (flushing) {
                Owed o;
                while ((o = pending.peek()) != null) {
                    if (o instanceof Write w) {
                        write(c, w.record());
                    } else if (o instanceof Withdraw wd) {
                        withdraw(c, wd);
                    }
                    pending.poll();
                }
            }
        }
    }

    private void withdraw(Connection c, Withdraw w) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(WITHDRAW)) {
            ps.setString(1, "refused on " + me.host() + ": the store did not answer the claim in time, so the call was"
                    + " not made; the claim it committed late is withdrawn");
            ps.setString(2, w.intentKey());
            ps.setString(3, w.claim());
            if (ps.executeUpdate() > 0) {
                AgentLog.info("effectful " + name + ": a claim committed after this host had given up on it ("
                        + w.claim() + ") is withdrawn; the intent was never attempted");
            }
        }
    }

    private void write(Connection c, JournalRecord r) throws SQLException {
        if (r.type() == RecordType.INTENT) {
            insertIntent(c, WRITE_INTENT, r.intentKey(), r.task(), r.call(), r.kind() == null ? null : r.kind().word(), r.attempt(),
                    me.owner() + ":" + claims.incrementAndGet());
            return;
        }
        if (r.type() == RecordType.APPROVAL_REQUESTED) {
            // the claim made the row; rewriting it could undo a verdict given since
            requestApproval(c, r.intentKey(), new IntentMeta(r.task(), r.call(), r.kind() == null ? null : r.kind().word()),
                    r.started());
            return;
        }
        // the state this one record leads to, by the same transitions the local index uses
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

    /** Every third of a lease: renew the leases of calls running here, write what is owed, expire old rows. */
    private void tick() {
        try {
            long deadline = storeDeadline();
            withConnection(deadline, c -> {
                prepare(c, deadline);
                if (!held.isEmpty()) {
                    try (PreparedStatement ps = c.prepareStatement(RENEW)) {
                        ps.setLong(1, leaseMillis);
                        ps.setString(2, me.owner());
                        ps.setArray(3, c.createArrayOf("text", held.keySet().toArray()));
                        ps.executeUpdate();
                    }
                }
                if (System.currentTimeMillis() >= nextExpiry) {
                    try (PreparedStatement ps = c.prepareStatement(EXPIRE)) {
                        ps.setLong(1, retentionMillis);
                        int gone = ps.executeUpdate();
                        if (gone > 0) {
                            AgentLog.debug("effectful " + name + ": " + gone + " intents past retention deleted");
                        }
                    }
                    nextExpiry = System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1);
                }
                return null;
            });
        } catch (SQLException | RuntimeException e) {
            if (!held.isEmpty()) {
                AgentLog.warnOnce("store-renew", name + ": could not renew the leases of running calls ("
                        + e.getMessage() + "); if this lasts longer than a lease another host may take them over");
            }
        }
    }

    private StoreUnavailableException unavailable(SQLException e, String claimNote) {
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        if (PgErrors.refusesSettings(e)) {
            String fix = name + " refuses this host's settings: " + msg + "; fix " + PostgresSettings.URL + ", "
                    + PostgresSettings.USER + " and " + PostgresSettings.PASSWORD + " (or "
                    + PostgresSettings.PASSWORD_FILE + "; EFFECTFUL_STORE_* in the environment) and restart";
            AgentLog.errorOnce("store-settings", "effectful: " + fix + "; effectful calls are refused until then", null);
            return new StoreUnavailableException(fix + claimNote, e, true);
        }
        return new StoreUnavailableException(name + " unavailable: " + msg + claimNote, e);
    }

    private static Phase phase(String word) {
        return Phase.valueOf(word.toUpperCase(Locale.ROOT));
    }

    @Override
    public int forgetOlderThan(long cutoffMillis) {
        return local.forgetOlderThan(cutoffMillis); // the shared rows expire by the scheduled delete
    }

    @Override
    public int size() {
        return local.size();
    }

    /** Records (and withdrawals of claims given up on) still owed to the store (tests and diagnostics). */
    public int pendingRecords() {
        return pending.size();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        db.close();
    }
}

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
import dev.effectful.core.reentry.StoreUnavailableException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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

    private final LocalIntentIndex local;
    private final PgConnections db;
    private final String name;
    private final Holder me;
    private final IntentRows rows;
    private final long leaseMillis;
    private final long timeoutMillis;
    private final long retentionMillis;
    /** Keys whose lease this process holds and renews, with the attempt it runs or probes. */
    private final ConcurrentHashMap<String, Integer> held = new ConcurrentHashMap<>();
    /** Claims whose row already says "intended, attempt n": the intent record need not be written again. */
    private final ConcurrentHashMap<String, Integer> claimedRow = new ConcurrentHashMap<>();
    /** What the store could not take yet, in order: journal records, and claims to withdraw. */
    private final OwedRecords owed;
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
        this.rows = new IntentRows(me, leaseMillis);
        this.owed = new OwedRecords(rows, name);
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
        String claim = rows.newClaim();
        Unanswered sent = new Unanswered();
        try {
            return db.withConnection(deadline, c -> {
                prepare(c, deadline);
                for (int round = 0; round < 3; round++) {
                    long now = System.currentTimeMillis();
                    Decision fresh = rule.decide(null, now);
                    if (fresh instanceof Decision.RequestApproval && rows.requestApproval(c, key, meta, now)) {
                        return fresh;
                    }
                    if (fresh instanceof Decision.Run run) {
                        sent.claim = claim;
                        int inserted = rows.claimNew(c, key, meta, run.attempt(), claim);
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
            owed.withdrawal(key, sent.claim);
            throw unavailable(e, " (claim " + sent.claim + " left unanswered: it is withdrawn as soon as the store"
                    + " answers, so it never counts as an attempt)");
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
            try (PreparedStatement ps = c.prepareStatement(IntentRows.SELECT_LOCKED)) {
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
                sent.claim = claim;
                rows.claimRun(c, key, run.attempt(), claim);
            } else if (d instanceof Decision.Probe) {
                rows.claimProbe(c, key, claim);
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
            PgConnections.rollbackQuietly(c);
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
            db.withConnection(storeDeadline(), c -> rows.abandon(c, intentKey, attempt));
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
        if (owed.isEmpty()) {
            try {
                long deadline = storeDeadline();
                db.withConnection(deadline, c -> {
                    prepare(c, deadline);
                    rows.writeRecord(c, r);
                    return null;
                });
                return;
            } catch (SQLException e) {
                AgentLog.warnOnce("store-pending", name + " unavailable while recording a " + r.type().word()
                        + " (" + e.getMessage() + "): it is in the local journal and is written to the store, in order,"
                        + " before this host decides anything again");
            }
        }
        owed.record(r);
    }

    /**
     * For a health check: one round trip ({@code SELECT 1}) within the store's timeout; empty when it
     * answered, else why not. The engine's own calls do not wait for it.
     */
    @Override
    public Optional<String> problem() {
        try {
            db.withConnection(storeDeadline(), c -> {
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
        owed.flush(c);
    }

    /** Every third of a lease: renew the leases of calls running here, write what is owed, expire old rows. */
    private void tick() {
        try {
            long deadline = storeDeadline();
            db.withConnection(deadline, c -> {
                prepare(c, deadline);
                if (!held.isEmpty()) {
                    rows.renew(c, held.keySet().toArray());
                }
                if (System.currentTimeMillis() >= nextExpiry) {
                    int gone = rows.expire(c, retentionMillis);
                    if (gone > 0) {
                        AgentLog.debug("effectful " + name + ": " + gone + " intents past retention deleted");
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
        return owed.size();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        db.close();
    }
}

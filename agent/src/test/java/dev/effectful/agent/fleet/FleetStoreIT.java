package dev.effectful.agent.fleet;

import dev.effectful.runtime.engine.ApiWords;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.EffectKind;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.store.postgres.PostgresIntentStore;
import dev.effectful.store.postgres.PostgresSettings;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.LocalIntentIndex;
import dev.effectful.core.reentry.ReentryRules;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.core.store.IntentStoreProviders;
import dev.effectful.core.store.StoreView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shared store's semantics against a real PostgreSQL, several "hosts" (stores) in one JVM. */
class FleetStoreIT {

    @RegisterExtension
    static final SharedPostgres pg = new SharedPostgres();
    private final List<PostgresIntentStore> open = new ArrayList<>();

    @AfterEach
    void closeStores() {
        open.forEach(PostgresIntentStore::close);
    }

    static PostgresSettings cfg(Duration lease) {
        return cfg(lease, Duration.ofSeconds(5));
    }

    static PostgresSettings cfg(Duration lease, Duration timeout) {
        return new PostgresSettings(pg.server().url(), PostgresServer.USER, PostgresServer.PASSWORD, lease, timeout);
    }

    /** The configuration's store entry, as the CLI hands it to the provider. */
    static EffectfulConfig.Store store(Duration lease) {
        return new EffectfulConfig.Store("postgres", cfg(lease));
    }

    PostgresIntentStore host(Duration lease) {
        return host(lease, Duration.ofSeconds(5));
    }

    PostgresIntentStore host(Duration lease, Duration timeout) {
        PostgresIntentStore s = PostgresIntentStore.open(cfg(lease, timeout), Duration.ofDays(7), new LocalIntentIndex());
        open.add(s);
        return s;
    }

    /** A budget that lets a decision be asked but not wait for another host. */
    static final long SHORT = TimeUnit.MILLISECONDS.toNanos(3000);

    static final IntentStore.IntentMeta META = new IntentStore.IntentMeta("task-1", "charge", "money");

    static IntentStore.Rule rule(EffectKind kind, boolean probe) {
        return (s, now) -> ReentryRules.decide(s, ApiWords.kind(kind), false, probe, "k", now);
    }

    static JournalRecord outcome(String key, int attempt, String outcome, String effect, String result) {
        return JournalRecord.of(RecordType.OUTCOME).task("task-1").call("charge").kind(Kind.MONEY).intentKey(key)
                .attempt(attempt).started(System.currentTimeMillis()).durationMs(1L).outcome(OutcomeWord.fromWord(outcome))
                .effectApplied(Effect.fromWord(effect)).result(result).build();
    }

    static JournalRecord intent(String key, int attempt) {
        return JournalRecord.of(RecordType.INTENT).task("task-1").call("charge").kind(Kind.MONEY).intentKey(key)
                .attempt(attempt).started(System.currentTimeMillis()).build();
    }

    @Test
    void aNewIntentIssuedByManyHostsAtOnceRunsOnceAndEveryoneGetsTheWinnersResult() throws Exception {
        List<PostgresIntentStore> hosts = List.of(host(Duration.ofSeconds(30)), host(Duration.ofSeconds(30)),
                host(Duration.ofSeconds(30)));
        ExecutorService pool = Executors.newFixedThreadPool(hosts.size());
        try {
            for (int k = 0; k < 10; k++) {
                String key = "race-" + k;
                CyclicBarrier start = new CyclicBarrier(hosts.size());
                List<Future<Decision>> answers = new ArrayList<>();
                for (int h = 0; h < hosts.size(); h++) {
                    PostgresIntentStore host = hosts.get(h);
                    String mine = "\"by-host-" + h + "\"";
                    answers.add(pool.submit((Callable<Decision>) () -> {
                        start.await(10, TimeUnit.SECONDS);
                        Decision d = host.decideAndClaim(key, META, rule(EffectKind.MONEY, false), TimeUnit.SECONDS.toNanos(20));
                        if (d instanceof Decision.Run) {
                            host.apply(0, intent(key, 1));
                            host.apply(1, outcome(key, 1, "ok", "yes", mine));
                            return new Decision.Replay(-1, mine); // what the others must answer
                        }
                        return d;
                    }));
                }
                List<Decision> ds = new ArrayList<>();
                for (Future<Decision> f : answers) {
                    ds.add(f.get(30, TimeUnit.SECONDS));
                }
                assertThat(ds).as(key).hasSize(3).allMatch(d -> d instanceof Decision.Replay);
                assertThat(ds.stream().map(d -> ((Decision.Replay) d).resultJson()).distinct()).as(key + ": " + ds).hasSize(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A host that claimed MONEY intent {@code key} (with a probe or not), its first attempt, and journaled it. */
    private PostgresIntentStore holding(String key, boolean probe, Duration lease) throws Exception {
        PostgresIntentStore host = host(lease);
        assertThat(host.decideAndClaim(key, META, rule(EffectKind.MONEY, probe), SHORT)).isEqualTo(new Decision.Run(1));
        host.apply(0, intent(key, 1));
        return host;
    }

    @Test
    void theLoserWaitsForTheWinnersOutcomeAndReplaysItsResult() throws Exception {
        PostgresIntentStore a = holding("wait-1", false, Duration.ofSeconds(30));
        PostgresIntentStore b = host(Duration.ofSeconds(30));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Decision> waiting = pool.submit(() -> b.decideAndClaim("wait-1", META, rule(EffectKind.MONEY, false),
                    TimeUnit.SECONDS.toNanos(20)));
            Thread.sleep(300); // let b poll at least once against the live lease
            assertThat(waiting).isNotDone();
            a.apply(1, outcome("wait-1", 1, "ok", "yes", "\"charged-42\""));
            assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(new Decision.Replay(-1, "\"charged-42\""));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLeaseNotRenewedLapsesAndTheIntentGoesToTheProbe() throws Exception {
        PostgresIntentStore dead = holding("lapse-1", true, Duration.ofMillis(600));
        PostgresIntentStore survivor = host(Duration.ofMillis(600));
        // while the holder lives, its lease is renewed: several leases later the key is still its own
        Thread.sleep(1500);
        assertThat(survivor.decideAndClaim("lapse-1", META, rule(EffectKind.MONEY, true), SHORT))
                .isInstanceOf(Decision.Elsewhere.class);
        dead.close(); // stops renewing, as a killed host does
        long t0 = System.nanoTime();
        Decision d = survivor.decideAndClaim("lapse-1", META, rule(EffectKind.MONEY, true), TimeUnit.SECONDS.toNanos(10));
        assertThat(d).isEqualTo(new Decision.Probe(1));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
        // no probe declared and a card to charge: held for a person, on every host
        PostgresIntentStore third = host(Duration.ofMillis(600));
        survivor.close();
        assertThat(third.decideAndClaim("lapse-1", META, rule(EffectKind.MONEY, false), TimeUnit.SECONDS.toNanos(10)))
                .isInstanceOf(Decision.Refuse.class);
    }

    /** A host whose MONEY call of {@code key} ended unknown: claimed, journaled, its outcome unknown/unknown. */
    private PostgresIntentStore leftUnknown(String key) {
        PostgresIntentStore a = host(Duration.ofMillis(300));
        a.decideAndClaim(key, META, rule(EffectKind.MONEY, false), SHORT);
        a.apply(0, intent(key, 1));
        a.apply(1, outcome(key, 1, "unknown", "unknown", null));
        return a;
    }

    /** The store's view as the CLI opens it: through the service lookup. */
    private StoreView cliView() throws Exception {
        return IntentStoreProviders.find("postgres").orElseThrow().openView(store(Duration.ofSeconds(30)).settings());
    }

    @Test
    void aPersonsResolutionThroughTheCliIsObeyedByEveryHost() throws Exception {
        PostgresIntentStore a = leftUnknown("res-1");
        // through the service lookup, as the CLI finds it
        try (StoreView view = cliView()) {
            assertThat(view.unresolved()).extracting(StoreView.Unresolved::intentKey).contains("res-1");
            assertThat(view.tasks()).extracting(StoreView.TaskLine::task).contains("task-1");
            assertThat(view.resolve("res-1", false, "card statement shows no charge"))
                    .isEqualTo(StoreView.Resolution.RESOLVED);
            assertThat(view.resolve("no-such", true, null)).isEqualTo(StoreView.Resolution.NO_SUCH_INTENT);
            assertThat(view.unresolved()).extracting(StoreView.Unresolved::intentKey).doesNotContain("res-1");
        }
        PostgresIntentStore b = host(Duration.ofMillis(300));
        assertThat(b.decideAndClaim("res-1", META, rule(EffectKind.MONEY, false), SHORT)).isEqualTo(new Decision.Run(2));
    }

    @Test
    void theRealCliListsAndResolvesThroughTheSharedStore(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        PostgresIntentStore a = leftUnknown("cli-1");
        java.util.Map<String, String> env = pg.server().storeEnv();
        dev.effectful.agent.e2e.CliRun unresolved = dev.effectful.agent.e2e.CliRun.journal(env, tmp, "--store", "postgres",
                "unresolved");
        assertThat(unresolved.exitCode()).as(unresolved.toString()).isEqualTo(3);
        assertThat(unresolved.stdout()).contains("cli-1", "task-1", "charge");
        assertThat(unresolved.stdout() + unresolved.stderr()).doesNotContain(PostgresServer.PASSWORD);
        dev.effectful.agent.e2e.CliRun tasks = dev.effectful.agent.e2e.CliRun.journal(env, tmp, "--store", "postgres",
                "--json", "tasks");
        assertThat(tasks.exitCode()).as(tasks.toString()).isZero();
        assertThat(tasks.stdout()).contains("\"task\":\"task-1\"");
        dev.effectful.agent.e2e.CliRun resolve = dev.effectful.agent.e2e.CliRun.journal(env, tmp, "--store", "postgres",
                "resolve", "cli-1", "--applied", "yes", "--note", "bank statement shows it");
        assertThat(resolve.exitCode()).as(resolve.toString()).isZero();
        PostgresIntentStore b = host(Duration.ofMillis(300));
        assertThat(b.decideAndClaim("cli-1", META, rule(EffectKind.MONEY, false), SHORT))
                .isInstanceOf(Decision.Replay.class);
    }

    @Test
    void schemaMigrationIsVersionedAndRunsOnceWhenHostsStartTogether() throws Exception {
        List<PostgresIntentStore> hosts = List.of(host(Duration.ofSeconds(30)), host(Duration.ofSeconds(30)),
                host(Duration.ofSeconds(30)), host(Duration.ofSeconds(30)));
        ExecutorService pool = Executors.newFixedThreadPool(hosts.size());
        try {
            CyclicBarrier start = new CyclicBarrier(hosts.size());
            List<Future<Decision>> fs = new ArrayList<>();
            for (int i = 0; i < hosts.size(); i++) {
                PostgresIntentStore h = hosts.get(i);
                String key = "mig-" + i;
                fs.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return h.decideAndClaim(key, META, rule(EffectKind.MONEY, false), SHORT);
                }));
            }
            for (Future<Decision> f : fs) {
                assertThat(f.get(20, TimeUnit.SECONDS)).isEqualTo(new Decision.Run(1));
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = pg.server().connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), max(version) FROM effectful_schema")) {
            rs.next();
            assertThat(rs.getInt(1)).as("every migration applied once").isEqualTo(3);
            assertThat(rs.getInt(2)).isEqualTo(3);
        }
    }

    @Test
    void aDatabaseThatIsDownRefusesWithinTheBudgetAndOwedRecordsAreWrittenOnReturn() throws Exception {
        PostgresIntentStore a = host(Duration.ofSeconds(2));
        assertThat(a.decideAndClaim("down-1", META, rule(EffectKind.MONEY, false), SHORT)).isEqualTo(new Decision.Run(1));
        a.apply(0, intent("down-1", 1));
        pg.server().kill9();
        try {
            // the body ran while the database was away: its outcome is owed, not lost
            a.apply(1, outcome("down-1", 1, "ok", "yes", "\"r-1\""));
            assertThat(a.pendingRecords()).isEqualTo(1);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> a.decideAndClaim("down-2", META, rule(EffectKind.MONEY, false),
                    TimeUnit.MILLISECONDS.toNanos(300)))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("intent store postgres jdbc:postgresql://127.0.0.1:" + pg.server().port())
                    .hasMessageNotContaining(PostgresServer.PASSWORD);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(2500));
        } finally {
            pg.server().startServer();
        }
        PostgresIntentStore b = host(Duration.ofSeconds(2));
        // b decides from the row; a's owed outcome reaches it on a's next contact (its lease tick or decision)
        Decision d = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < end) {
            d = b.decideAndClaim("down-1", META, rule(EffectKind.MONEY, false), TimeUnit.SECONDS.toNanos(5));
            if (d instanceof Decision.Replay) {
                break;
            }
        }
        assertThat(d).isEqualTo(new Decision.Replay(-1, "\"r-1\""));
        // b can see the row the instant a's write commits, a moment before a drops it from what it owes
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> a.pendingRecords() == 0);
        assertThat(a.decideAndClaim("down-2", META, rule(EffectKind.MONEY, false), SHORT)).isEqualTo(new Decision.Run(1));
    }

    @Test
    void aResolutionWithAResultIsWhatEveryHostsRepeatReturns() throws Exception {
        PostgresIntentStore a = leftUnknown("res-r");
        try (StoreView view = cliView()) {
            assertThat(view.resolve("res-r", true, "the card statement shows it", "\"ch-77\""))
                    .isEqualTo(StoreView.Resolution.RESOLVED);
        }
        PostgresIntentStore b = host(Duration.ofMillis(300));
        assertThat(b.decideAndClaim("res-r", META, rule(EffectKind.MONEY, false), SHORT))
                .isInstanceOfSatisfying(Decision.Replay.class, r -> assertThat(r.resultJson()).isEqualTo("\"ch-77\""));
    }

    @Test
    void aWrongPasswordIsAMisconfigurationThatNamesTheSettingsNotAPassingOutage() {
        PostgresIntentStore wrong = PostgresIntentStore.open(new PostgresSettings(
                pg.server().url(), PostgresServer.USER, "not-the-password", Duration.ofSeconds(2), Duration.ofSeconds(5)),
                Duration.ofDays(7), new LocalIntentIndex());
        open.add(wrong);
        assertThatThrownBy(() -> wrong.decideAndClaim("pw-1", META, rule(EffectKind.MONEY, false), SHORT))
                .isInstanceOfSatisfying(StoreUnavailableException.class, e -> assertThat(e.misconfigured())
                        .as("no retry can succeed until someone fixes the settings").isTrue())
                .hasMessageContaining("refuses this host's settings")
                .hasMessageContaining("effectful.store.password")
                .hasMessageNotContaining("not-the-password");
        // the server being away is still a passing outage
        PostgresIntentStore right = host(Duration.ofSeconds(2));
        assertThat(right.decideAndClaim("pw-2", META, rule(EffectKind.MONEY, false), SHORT)).isEqualTo(new Decision.Run(1));
    }

    /** One call as the engine makes it: decide; when the decision is to run, the body's effect, journaled. */
    static Decision call(PostgresIntentStore host, String key, AtomicInteger effects) {
        Decision d = host.decideAndClaim(key, META, rule(EffectKind.MONEY, false), TimeUnit.SECONDS.toNanos(20));
        if (d instanceof Decision.Run run) {
            host.apply(0, intent(key, run.attempt()));
            effects.incrementAndGet();
            host.apply(1, outcome(key, run.attempt(), "ok", "yes", "\"charged-" + key + "\""));
        }
        return d;
    }

    /**
     * The claim is sent to a server frozen (SIGSTOP) past the store timeout: the call is refused,
     * retryable, effect no, and the server commits the claim when it resumes. The host that gave up
     * withdraws exactly that claim before it writes anything else.
     */
    private String refusedWhileFrozen(PostgresIntentStore a, String key, AtomicInteger effects) throws Exception {
        warm(a, "warm-" + key, effects);
        pg.server().freeze();
        String refusal;
        try {
            long t0 = System.nanoTime();
            StoreUnavailableException e = org.junit.jupiter.api.Assertions.assertThrows(StoreUnavailableException.class,
                    () -> call(a, key, effects));
            refusal = e.getMessage();
            assertThat(refusal).as("the claim was sent and not answered").contains("claim ").contains("withdrawn");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
            Thread.sleep(500); // frozen past the store timeout, as in the report (2.5 s in all)
        } finally {
            pg.server().thaw();
        }
        return refusal;
    }

    /**
     * Connected and migrated before the freeze, so that what the frozen server receives is the claim
     * itself. On a loaded machine a first connection can take longer than the short store timeout
     * these tests use: then again, under a fresh key.
     */
    private static void warm(PostgresIntentStore host, String key, AtomicInteger effects) {
        for (int i = 0; ; i++) {
            try {
                assertThat(call(host, key + "-" + i, effects)).isEqualTo(new Decision.Run(1));
                return;
            } catch (StoreUnavailableException e) {
                if (i == 10) {
                    throw e;
                }
            }
        }
    }

    @Test
    void aClaimCommittedAfterTheHostGaveUpDoesNotHoldTheIntentTheNextCallRunsItOnce() throws Exception {
        AtomicInteger effects = new AtomicInteger();
        PostgresIntentStore a = host(Duration.ofSeconds(3), Duration.ofSeconds(2));
        refusedWhileFrozen(a, "late-1", effects);
        assertThat(effects).hasValue(1); // the warm-up call only
        // the same host calls again: it runs (never "held until a person resolves it"), once
        assertThat(call(a, "late-1", effects)).isInstanceOf(Decision.Run.class);
        assertThat(effects).hasValue(2);
        assertThat(call(a, "late-1", effects)).isEqualTo(new Decision.Replay(-1, "\"charged-late-1\""));
        assertThat(effects).as("the refused call's intent ran exactly once").hasValue(2);
    }

    @Test
    void aClaimCommittedAfterItsHostGaveUpIsWithdrawnForEveryHost() throws Exception {
        AtomicInteger effects = new AtomicInteger();
        PostgresIntentStore a = host(Duration.ofSeconds(3), Duration.ofSeconds(2));
        PostgresIntentStore b = host(Duration.ofSeconds(3), Duration.ofSeconds(2));
        warm(b, "warm-b", effects);
        String refusal = refusedWhileFrozen(a, "late-2", effects);
        String claim = refusal.replaceAll("(?s).*\\(claim (\\S+) .*", "$1");
        // the server committed the claim when it resumed; a withdraws it at its next contact (its lease timer)
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> "retryable".equals(row("late-2", "phase")));
        assertThat(row("late-2", "claim")).as("the late claim itself, withdrawn").isEqualTo(claim);
        assertThat(row("late-2", "effect_applied")).isEqualTo("no");
        // another host runs it, once; the host that gave up then replays it
        assertThat(call(b, "late-2", effects)).isInstanceOf(Decision.Run.class);
        assertThat(call(a, "late-2", effects)).isEqualTo(new Decision.Replay(-1, "\"charged-late-2\""));
        assertThat(effects).as("two warm-ups and late-2 once").hasValue(3);
    }

    private static String row(String key, String column) throws Exception {
        try (Connection c = pg.server().connect(); java.sql.PreparedStatement ps = c.prepareStatement(
                "SELECT " + column + " FROM effectful_intents WHERE intent_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Test
    void thePasswordIsNeverShown() {
        PostgresSettings s = cfg(Duration.ofSeconds(1));
        assertThat(s.toString()).doesNotContain(PostgresServer.PASSWORD).contains("password=***");
    }
}

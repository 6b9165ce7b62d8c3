package dev.effectful.agent.fleet;

import dev.effectful.EffectKind;
import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.fleet.PostgresIntentStore;
import dev.effectful.runtime.fleet.PostgresJournalView;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.RecordType;
import dev.effectful.runtime.reentry.Decision;
import dev.effectful.runtime.reentry.IntentStore;
import dev.effectful.runtime.reentry.LocalIntentIndex;
import dev.effectful.runtime.reentry.ReentryRules;
import dev.effectful.runtime.reentry.StoreUnavailableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shared store's semantics against a real PostgreSQL, several "hosts" (stores) in one JVM. */
class FleetStoreIT {

    static PostgresServer pg;
    private final List<PostgresIntentStore> open = new ArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        pg = PostgresServer.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    @AfterEach
    void closeStores() {
        open.forEach(PostgresIntentStore::close);
    }

    static EffectfulConfig.Store cfg(Duration lease) {
        return new EffectfulConfig.Store(EffectfulConfig.StoreKind.POSTGRES, pg.url(), PostgresServer.USER,
                PostgresServer.PASSWORD, lease, Duration.ofSeconds(5));
    }

    PostgresIntentStore host(Duration lease) {
        PostgresIntentStore s = PostgresIntentStore.open(cfg(lease), Duration.ofDays(7), new LocalIntentIndex());
        open.add(s);
        return s;
    }

    /** A budget that lets a decision be asked but not wait for another host. */
    static final long SHORT = TimeUnit.MILLISECONDS.toNanos(3000);

    static final IntentStore.IntentMeta META = new IntentStore.IntentMeta("task-1", "charge", "money");

    static IntentStore.Rule rule(EffectKind kind, boolean probe) {
        return (s, now) -> ReentryRules.decide(s, kind, false, probe, "k", now);
    }

    static JournalRecord outcome(String key, int attempt, String outcome, String effect, String result) {
        return JournalRecord.of(RecordType.OUTCOME).task("task-1").call("charge").kind("money").intentKey(key)
                .attempt(attempt).started(System.currentTimeMillis()).durationMs(1L).outcome(outcome)
                .effectApplied(effect).result(result).build();
    }

    static JournalRecord intent(String key, int attempt) {
        return JournalRecord.of(RecordType.INTENT).task("task-1").call("charge").kind("money").intentKey(key)
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

    @Test
    void theLoserWaitsForTheWinnersOutcomeAndReplaysItsResult() throws Exception {
        PostgresIntentStore a = host(Duration.ofSeconds(30));
        PostgresIntentStore b = host(Duration.ofSeconds(30));
        assertThat(a.decideAndClaim("wait-1", META, rule(EffectKind.MONEY, false), SHORT)).isEqualTo(new Decision.Run(1));
        a.apply(0, intent("wait-1", 1));
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
        PostgresIntentStore dead = host(Duration.ofMillis(600));
        PostgresIntentStore survivor = host(Duration.ofMillis(600));
        assertThat(dead.decideAndClaim("lapse-1", META, rule(EffectKind.MONEY, true), SHORT)).isEqualTo(new Decision.Run(1));
        dead.apply(0, intent("lapse-1", 1));
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

    @Test
    void aPersonsResolutionThroughTheCliIsObeyedByEveryHost() throws Exception {
        PostgresIntentStore a = host(Duration.ofMillis(300));
        a.decideAndClaim("res-1", META, rule(EffectKind.MONEY, false), SHORT);
        a.apply(0, intent("res-1", 1));
        a.apply(1, outcome("res-1", 1, "unknown", "unknown", null));
        try (PostgresJournalView view = PostgresJournalView.open(cfg(Duration.ofSeconds(30)))) {
            assertThat(view.unresolved()).extracting(PostgresJournalView.Unresolved::intentKey).contains("res-1");
            assertThat(view.tasks()).extracting(PostgresJournalView.TaskLine::task).contains("task-1");
            assertThat(view.resolve("res-1", false, "card statement shows no charge"))
                    .isEqualTo(PostgresJournalView.Resolution.RESOLVED);
            assertThat(view.resolve("no-such", true, null)).isEqualTo(PostgresJournalView.Resolution.NO_SUCH_INTENT);
            assertThat(view.unresolved()).extracting(PostgresJournalView.Unresolved::intentKey).doesNotContain("res-1");
        }
        PostgresIntentStore b = host(Duration.ofMillis(300));
        assertThat(b.decideAndClaim("res-1", META, rule(EffectKind.MONEY, false), SHORT)).isEqualTo(new Decision.Run(2));
    }

    @Test
    void theRealCliListsAndResolvesThroughTheSharedStore(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        PostgresIntentStore a = host(Duration.ofMillis(300));
        a.decideAndClaim("cli-1", META, rule(EffectKind.MONEY, false), SHORT);
        a.apply(0, intent("cli-1", 1));
        a.apply(1, outcome("cli-1", 1, "unknown", "unknown", null));
        java.util.Map<String, String> env = java.util.Map.of("EFFECTFUL_STORE_URL", pg.url(),
                "EFFECTFUL_STORE_USER", PostgresServer.USER, "EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD);
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
        try (Connection c = pg.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), max(version) FROM effectful_schema")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
            assertThat(rs.getInt(2)).isEqualTo(1);
        }
    }

    @Test
    void aDatabaseThatIsDownRefusesWithinTheBudgetAndOwedRecordsAreWrittenOnReturn() throws Exception {
        PostgresIntentStore a = host(Duration.ofSeconds(2));
        assertThat(a.decideAndClaim("down-1", META, rule(EffectKind.MONEY, false), SHORT)).isEqualTo(new Decision.Run(1));
        a.apply(0, intent("down-1", 1));
        pg.kill9();
        try {
            // the body ran while the database was away: its outcome is owed, not lost
            a.apply(1, outcome("down-1", 1, "ok", "yes", "\"r-1\""));
            assertThat(a.pendingRecords()).isEqualTo(1);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> a.decideAndClaim("down-2", META, rule(EffectKind.MONEY, false),
                    TimeUnit.MILLISECONDS.toNanos(300)))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("intent store postgres jdbc:postgresql://127.0.0.1:" + pg.port())
                    .hasMessageNotContaining(PostgresServer.PASSWORD);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(2500));
        } finally {
            pg.startServer();
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
    void thePasswordIsNeverShown() {
        EffectfulConfig.Store s = cfg(Duration.ofSeconds(1));
        assertThat(s.toString()).doesNotContain(PostgresServer.PASSWORD).contains("password=***");
    }
}

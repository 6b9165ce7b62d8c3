package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Status;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import feign.FeignException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

import static dev.effectful.core.journal.RecordType.DEDUP;
import static dev.effectful.core.journal.RecordType.INTENT;
import static dev.effectful.core.journal.RecordType.KEY_SENT;
import static dev.effectful.core.journal.RecordType.OUTCOME;
import static dev.effectful.core.journal.RecordType.PROBE;
import static dev.effectful.core.journal.RecordType.REFUSED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every row of the README's re-entry table ("a call whose intent key the journal already knows"),
 * run by the real engine in-process over an in-memory journal: each row puts the key in its state
 * with earlier calls (or a simulated crash, or a person's resolution), then repeats the call and
 * checks what the caller got, whether the body ran, and which records the repeat wrote.
 */
class ReentryTableTest {

    private static final String TASK = "t-reentry";
    private static final String KEY = "order-7";

    @TempDir
    Path secret;

    /** Tools of every kind; each body runs the next step of {@link #script}, else returns "done:" + id. */
    public static class Tools {
        final AtomicInteger bodies = new AtomicInteger();
        final Deque<Object> script = new ArrayDeque<>();
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean hold;
        volatile Object probeAnswer;

        private String body(String id) throws Exception {
            bodies.incrementAndGet();
            if (hold) {
                release.await(20, TimeUnit.SECONDS);
            }
            Object next;
            synchronized (script) {
                next = script.poll();
            }
            if (next instanceof Exception e) {
                throw e;
            }
            return next != null ? (String) next : "done:" + id;
        }

        @EffectfulTool(kind = EffectKind.SEND)
        public String send(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.MONEY)
        public String money(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.DESTRUCTIVE)
        public String destroy(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.CREATE)
        public String create(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.CREATE, keyable = true)
        public String createKeyable(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.IDEMPOTENT)
        public String put(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.READ)
        public String read(@IntentKey String id) throws Exception {
            return body(id);
        }

        /** Each key a body put on a request, in order: what the service would have deduplicated on. */
        final List<String> keysSent = new java.util.concurrent.CopyOnWriteArrayList<>();

        /**
         * A body whose request goes through a covered client: what the HTTP advice does (takes the key
         * header, puts it on the request, reports it sent), then the request's fate, from the script.
         */
        private String sending(String id) throws Exception {
            String[] header = KeyHeaders.forRequest();
            if (header != null) {
                KeyHeaders.sent(header[1]);
                keysSent.add(header[1]);
            }
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.READ, keyHeader = "Idempotency-Key")
        public String readSent(@IntentKey String id) throws Exception {
            return sending(id);
        }

        @EffectfulTool(kind = EffectKind.READ, keyHeader = "Idempotency-Key")
        public String readUnsent(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.READ, keyable = true)
        public String readKeyable(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.IDEMPOTENT, keyHeader = "Idempotency-Key")
        public String idempotentSent(@IntentKey String id) throws Exception {
            return sending(id);
        }

        @EffectfulTool(kind = EffectKind.IDEMPOTENT, keyHeader = "Idempotency-Key")
        public String idempotentUnsent(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.IDEMPOTENT, keyable = true)
        public String idempotentKeyable(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.CREATE, keyHeader = "Idempotency-Key")
        public String createSent(@IntentKey String id) throws Exception {
            return sending(id);
        }

        @EffectfulTool(kind = EffectKind.CREATE, keyHeader = "Idempotency-Key")
        public String createUnsent(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.SEND, keyHeader = "Idempotency-Key")
        public String sendSent(@IntentKey String id) throws Exception {
            return sending(id);
        }

        @EffectfulTool(kind = EffectKind.SEND, keyHeader = "Idempotency-Key")
        public String sendUnsent(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.SEND, keyable = true)
        public String sendKeyable(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.MONEY, keyHeader = "Idempotency-Key")
        public String moneySent(@IntentKey String id) throws Exception {
            return sending(id);
        }

        @EffectfulTool(kind = EffectKind.MONEY, keyHeader = "Idempotency-Key")
        public String moneyUnsent(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.MONEY, keyable = true)
        public String moneyKeyable(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.DESTRUCTIVE, keyHeader = "Idempotency-Key")
        public String destroySent(@IntentKey String id) throws Exception {
            return sending(id);
        }

        @EffectfulTool(kind = EffectKind.DESTRUCTIVE, keyHeader = "Idempotency-Key")
        public String destroyUnsent(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.DESTRUCTIVE, keyable = true)
        public String destroyKeyable(@IntentKey String id) throws Exception {
            return body(id);
        }

        @EffectfulTool(kind = EffectKind.MONEY, keyHeader = "Idempotency-Key", probe = "findCharge")
        public String moneySentProbed(@IntentKey String id) throws Exception {
            return sending(id);
        }

        String findCharge(String id) {
            return (String) probeAnswer;
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "findSent")
        public String sendProbed(@IntentKey String id) throws Exception {
            return body(id);
        }

        String findSent(String id) {
            if (probeAnswer instanceof RuntimeException e) {
                throw e;
            }
            return (String) probeAnswer;
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "wasSent")
        public String sendFlagged(@IntentKey String id) throws Exception {
            return body(id);
        }

        boolean wasSent(String id) {
            return true;
        }
    }

    /** The world a row starts from: the engine (replaced by a restart) and the tools. */
    static final class World {
        InMemoryEngine engine;
        final Tools tools = new Tools();

        World(InMemoryEngine engine) {
            this.engine = engine;
        }

        InMemoryEngine.Answer call(String method) {
            return engine.call(TASK, tools, method, KEY);
        }

        /** An earlier call of {@code method} whose body ends with {@code step} (a value or an exception). */
        void earlier(String method, Object step) {
            tools.script.add(step);
            call(method);
        }

        /** An earlier call whose process died after its intent: its outcome record never reached the journal. */
        void crashedAfterIntent(String method) {
            call(method);
            engine = engine.restartedWithout(r -> r.type() == OUTCOME);
        }

        /** A person's verdict on the earlier call, as {@code journal resolve} writes it. */
        void resolved(String method, boolean applied, String resultJson, String note) {
            earlier(method, new SocketTimeoutException("Read timed out"));
            engine.appendAsAnotherWriter(JournalRecord.of(RecordType.RESOLUTION).task(TASK).call(method).kind(dev.effectful.core.journal.Kind.SEND)
                    .intentKey(engine.lastIntentKey()).attempt(1).started(System.currentTimeMillis())
                    .effectApplied(applied ? dev.effectful.core.journal.Effect.YES : dev.effectful.core.journal.Effect.NO).message(note).result(resultJson).build());
        }
    }

    record Row(String state, String method, Consumer<World> before, Function<World, InMemoryEngine.Answer> repeat,
               Status status, EffectApplied effect, boolean bodyRuns, List<RecordType> written) {
        @Override
        public String toString() {
            return state + " (" + method + ")";
        }
    }

    private static Row row(String state, String method, Consumer<World> before, Status status, EffectApplied effect,
                           boolean bodyRuns, RecordType... written) {
        return new Row(state, method, before, w -> w.call(method), status, effect, bodyRuns, List.of(written));
    }

    private static Map<String, Collection<String>> retryAfter(String seconds) {
        return Map.of("Retry-After", List.of(seconds));
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("never seen", "send", w -> { }, Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("ok", "send", w -> w.earlier("send", "first answer"),
                        Status.OK, EffectApplied.YES, false, DEDUP),
                // the first call's intent and outcome, then the repeat's dedup: one run for both
                new Row("in flight in this process", "send", w -> { }, ReentryTableTest::whileTheFirstRuns,
                        Status.OK, EffectApplied.YES, false, List.of(INTENT, OUTCOME, DEDUP)),
                row("retryable, effect no, Retry-After not yet passed", "send",
                        w -> w.earlier("send", new FeignException.ServiceUnavailable("busy", retryAfter("30"))),
                        Status.RETRYABLE, EffectApplied.NO, false, REFUSED),
                row("retryable, effect no, Retry-After passed", "send", w -> {
                    w.earlier("send", new FeignException.ServiceUnavailable("busy", retryAfter("30")));
                    w.engine.store.advance(Duration.ofSeconds(31));
                }, Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("retryable, effect no", "send", w -> w.earlier("send", new ConnectException("refused")),
                        Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("permanent, effect no", "send", w -> w.earlier("send", new IllegalArgumentException("bad")),
                        Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("unknown, probe finds it", "sendProbed", w -> {
                    w.earlier("sendProbed", new SocketTimeoutException("Read timed out"));
                    w.tools.probeAnswer = "found:" + KEY;
                }, Status.OK, EffectApplied.YES, false, PROBE),
                row("intended without outcome (crash), probe finds it", "sendProbed", w -> {
                    w.crashedAfterIntent("sendProbed");
                    w.tools.probeAnswer = "found:" + KEY;
                }, Status.OK, EffectApplied.YES, false, PROBE),
                row("unknown, probe says true (ok without a value)", "sendFlagged",
                        w -> w.earlier("sendFlagged", new SocketTimeoutException("Read timed out")),
                        Status.OK, EffectApplied.YES, false, PROBE),
                row("unknown, probe finds nothing", "sendProbed",
                        w -> w.earlier("sendProbed", new SocketTimeoutException("Read timed out")),
                        Status.OK, EffectApplied.YES, true, PROBE, INTENT, OUTCOME),
                row("unknown, probe throws", "sendProbed", w -> {
                    w.earlier("sendProbed", new SocketTimeoutException("Read timed out"));
                    w.tools.probeAnswer = new IllegalStateException("probe down");
                }, Status.UNKNOWN, EffectApplied.UNKNOWN, false, PROBE, REFUSED),
                row("any state, READ", "read", w -> w.earlier("read", "first read"),
                        Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("intended without outcome (crash), no probe, READ", "read", w -> w.crashedAfterIntent("read"),
                        Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("unknown, no probe, IDEMPOTENT", "put",
                        w -> w.earlier("put", new SocketTimeoutException("Read timed out")),
                        Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("unknown, no probe, keyable CREATE", "createKeyable",
                        w -> w.earlier("createKeyable", new SocketTimeoutException("Read timed out")),
                        Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("intended without outcome (crash), no probe, IDEMPOTENT", "put", w -> w.crashedAfterIntent("put"),
                        Status.OK, EffectApplied.YES, true, INTENT, OUTCOME),
                row("unknown, no probe, SEND", "send",
                        w -> w.earlier("send", new SocketTimeoutException("Read timed out")),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, false, REFUSED),
                row("unknown, no probe, MONEY", "money",
                        w -> w.earlier("money", new SocketTimeoutException("Read timed out")),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, false, REFUSED),
                row("unknown, no probe, DESTRUCTIVE", "destroy",
                        w -> w.earlier("destroy", new SocketTimeoutException("Read timed out")),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, false, REFUSED),
                row("unknown, no probe, CREATE (not keyable)", "create",
                        w -> w.earlier("create", new SocketTimeoutException("Read timed out")),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, false, REFUSED),
                row("intended without outcome (crash), no probe, SEND", "send", w -> w.crashedAfterIntent("send"),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, false, REFUSED),
                row("resolved by a person: applied yes, with a result", "send",
                        w -> w.resolved("send", true, "\"from a person\"", "checked the ledger"),
                        Status.OK, EffectApplied.YES, false, DEDUP),
                row("resolved by a person: applied yes, no result", "send",
                        w -> w.resolved("send", true, null, "checked the ledger"),
                        Status.OK, EffectApplied.YES, false, DEDUP),
                row("resolved by a person: applied no", "send", w -> w.resolved("send", false, null, "never arrived"),
                        Status.OK, EffectApplied.YES, true, INTENT, OUTCOME));
    }

    /**
     * The key rows: an unknown (a lost answer) or an intent cut by a crash, of every kind, whose attempt's key
     * a covered client was seen sending ({@code key_sent}), whose request went out with no key seen (a key
     * header but an uncovered client), or whose tool declares {@code keyable = true}. No probe in any.
     */
    static Stream<Row> keyRows() {
        List<Row> rows = new java.util.ArrayList<>();
        for (String kind : List.of("read", "idempotent", "create", "send", "money", "destroy")) {
            boolean harmless = kind.equals("read") || kind.equals("idempotent");
            for (String how : List.of("Sent", "Unsent", "Keyable")) {
                if (kind.equals("create") && how.equals("Keyable")) {
                    continue; // the table's own "keyable CREATE" row
                }
                String method = kind + how;
                boolean runs = harmless || !how.equals("Unsent");
                RecordType[] ran = how.equals("Sent") ? new RecordType[] {INTENT, KEY_SENT, OUTCOME}
                        : new RecordType[] {INTENT, OUTCOME};
                String what = how.equals("Sent") ? "key_sent" : how.equals("Unsent") ? "no key_sent" : "keyable = true";
                rows.add(row("unknown, no probe, " + what + ", " + kind, method,
                        w -> w.earlier(method, new SocketTimeoutException("Read timed out")),
                        runs ? Status.OK : Status.UNKNOWN, runs ? EffectApplied.YES : EffectApplied.UNKNOWN, runs,
                        runs ? ran : new RecordType[] {REFUSED}));
                if (!harmless && !how.equals("Keyable")) {
                    rows.add(row("intended without outcome (crash), no probe, " + what + ", " + kind, method,
                            w -> w.crashedAfterIntent(method),
                            runs ? Status.OK : Status.UNKNOWN, runs ? EffectApplied.YES : EffectApplied.UNKNOWN, runs,
                            runs ? ran : new RecordType[] {REFUSED}));
                }
            }
        }
        // a declared probe still comes first: a measurement, as for a keyable CREATE
        rows.add(row("unknown, probe finds nothing, key_sent, money", "moneySentProbed",
                w -> w.earlier("moneySentProbed", new SocketTimeoutException("Read timed out")),
                Status.OK, EffectApplied.YES, true, PROBE, INTENT, KEY_SENT, OUTCOME));
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keyRows")
    void aRepeatSendsTheSameKeyOnlyWhenTheKeyWasSeenGoingOut(Row row) {
        aRepeatDoesWhatTheTableSays(row);
    }

    /** After a restart the key_sent fact comes back from the journal, and the re-run carries the first key. */
    @org.junit.jupiter.api.Test
    void theReRunAfterACrashCarriesTheFirstAttemptsKey() {
        World world = new World(new InMemoryEngine(secret));
        world.crashedAfterIntent("moneySent");
        InMemoryEngine.Answer answer = world.call("moneySent");
        assertThat(answer.status()).isEqualTo(Status.OK);
        assertThat(world.tools.keysSent).hasSize(2);
        assertThat(world.tools.keysSent.get(1)).as("the same key: the service deduplicates it")
                .isEqualTo(world.tools.keysSent.get(0)).isEqualTo(world.engine.lastIntentKey());
        List<JournalRecord> sent = world.engine.journal.since(0).stream().filter(r -> r.type() == KEY_SENT).toList();
        assertThat(sent).extracting(JournalRecord::attempt).containsExactly(1, 2);
        assertThat(sent).extracting(JournalRecord::header).containsOnly("Idempotency-Key");
    }

    /** The repeat arrives while the first call of the same intent is still in its body, in another thread. */
    private static InMemoryEngine.Answer whileTheFirstRuns(World w) {
        w.tools.hold = true;
        CompletableFuture<InMemoryEngine.Answer> first = CompletableFuture.supplyAsync(() -> w.call("send"));
        await().atMost(Duration.ofSeconds(20)).until(() -> w.tools.bodies.get() == 1);
        int before = w.tools.bodies.get();
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CompletableFuture<InMemoryEngine.Answer> repeat = CompletableFuture.supplyAsync(() -> {
            waiter.set(Thread.currentThread());
            return w.call("send");
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> waiter.get() != null
                && waiter.get().getState() == Thread.State.TIMED_WAITING);
        w.tools.bodies.addAndGet(-before); // only the repeat's body counts from here
        w.tools.release.countDown();
        assertThat(first.join().status()).isEqualTo(Status.OK);
        return repeat.join();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void aRepeatDoesWhatTheTableSays(Row row) {
        World world = new World(new InMemoryEngine(secret));
        row.before().accept(world);
        world.tools.bodies.set(0);
        int mark = world.engine.journal.size();

        InMemoryEngine.Answer answer = row.repeat().apply(world);

        assertThat(answer.status()).as("status").isEqualTo(row.status());
        assertThat(answer.effect()).as("effect_applied").isEqualTo(row.effect());
        assertThat(world.tools.bodies.get()).as("body runs").isEqualTo(row.bodyRuns() ? 1 : 0);
        assertThat(world.engine.journal.since(mark).stream().map(JournalRecord::type).toList()).as("records written")
                .isEqualTo(row.written());
        if (row.state().startsWith("ok")) {
            assertThat(answer.value()).as("the stored value").isEqualTo("first answer");
        }
        if (row.state().contains("with a result")) {
            assertThat(answer.value()).as("the person's value").isEqualTo("from a person");
        }
        if (row.state().contains("Retry-After not yet passed")) {
            assertThat(answer.retryAfterS()).as("seconds left").isBetween(29L, 30L);
        }
    }
}

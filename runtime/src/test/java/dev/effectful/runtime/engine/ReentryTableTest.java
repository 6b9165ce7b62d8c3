package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Status;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.RecordType;
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

import static dev.effectful.runtime.journal.RecordType.DEDUP;
import static dev.effectful.runtime.journal.RecordType.INTENT;
import static dev.effectful.runtime.journal.RecordType.OUTCOME;
import static dev.effectful.runtime.journal.RecordType.PROBE;
import static dev.effectful.runtime.journal.RecordType.REFUSED;
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
            engine.appendAsAnotherWriter(JournalRecord.of(RecordType.RESOLUTION).task(TASK).call(method).kind(dev.effectful.runtime.journal.Kind.SEND)
                    .intentKey(engine.lastIntentKey()).attempt(1).started(System.currentTimeMillis())
                    .effectApplied(applied ? dev.effectful.runtime.journal.Effect.YES : dev.effectful.runtime.journal.Effect.NO).message(note).result(resultJson).build());
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

package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import feign.FeignException;
import jakarta.validation.ValidationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every row of the README's outcome classification table, run by the real engine in-process over
 * an in-memory journal: the body of an effectful (SEND) tool and of a READ tool ends the row's way;
 * the caller's status and effect, the one body run, and the intent and outcome records (holding
 * the same status and effect) are checked for both.
 */
class ClassificationTableTest {

    @TempDir
    Path secret;

    /** What a body does instead of failing: wait for the deadline's interrupt, or answer an error inside a 200. */
    enum Step { SLEEP_PAST_DEADLINE, ERROR_IN_BODY }

    /** An effectful and a READ tool per shape; each body does the one step the row gives it. */
    public static class Tools {
        final AtomicInteger bodies = new AtomicInteger();
        volatile Supplier<Object> step;

        private String body() throws Exception {
            bodies.incrementAndGet();
            Object s = step.get();
            if (s instanceof Exception e) {
                throw e;
            }
            if (s == Step.SLEEP_PAST_DEADLINE) {
                Thread.sleep(20_000);
            }
            return s == Step.ERROR_IN_BODY ? "error: card declined" : "fine";
        }

        @EffectfulTool(kind = EffectKind.SEND)
        public String send(@IntentKey String id) throws Exception {
            return body();
        }

        @EffectfulTool(kind = EffectKind.READ)
        public String read(@IntentKey String id) throws Exception {
            return body();
        }

        @EffectfulTool(kind = EffectKind.SEND, timeoutMillis = 150)
        public String sendSlow(@IntentKey String id) throws Exception {
            return body();
        }

        @EffectfulTool(kind = EffectKind.READ, timeoutMillis = 150)
        public String readSlow(@IntentKey String id) throws Exception {
            return body();
        }

        @EffectfulTool(kind = EffectKind.SEND, check = "noErrorInside")
        public String sendChecked(@IntentKey String id) throws Exception {
            return body();
        }

        @EffectfulTool(kind = EffectKind.READ, check = "noErrorInside")
        public String readChecked(@IntentKey String id) throws Exception {
            return body();
        }

        void noErrorInside(String answer) {
            if (answer.startsWith("error")) {
                throw new ToolOutcomeException(Outcome.permanent("the service said: " + answer));
            }
        }
    }

    /** One row: how the body ends, and the outcome / effect for an effectful and for a READ tool. */
    record Row(String what, String tool, Supplier<Object> step, Status status, EffectApplied effect, Status readStatus,
               EffectApplied readEffect, Long retryAfterS) {
        @Override
        public String toString() {
            return what;
        }
    }

    private static Row same(String what, Supplier<Object> step, Status status, EffectApplied effect) {
        return new Row(what, "", step, status, effect, status, effect, null);
    }

    private static Row readRetries(String what, Supplier<Object> step) {
        return new Row(what, "", step, Status.UNKNOWN, EffectApplied.UNKNOWN, Status.RETRYABLE, EffectApplied.NO, null);
    }

    private static Supplier<Object> http(int status, String retryAfter) {
        Map<String, Collection<String>> headers = retryAfter == null ? Map.of() : Map.of("Retry-After", List.of(retryAfter));
        return () -> new FeignException(status, "HTTP " + status, headers);
    }

    static Stream<Row> rows() {
        Status retryable = Status.RETRYABLE;
        Status permanent = Status.PERMANENT;
        EffectApplied no = EffectApplied.NO;
        return Stream.of(
                same("ConnectException", () -> new ConnectException("Connection refused"), retryable, no),
                same("UnknownHostException", () -> new UnknownHostException("pay.example"), retryable, no),
                same("NoRouteToHostException", () -> new NoRouteToHostException("no route"), retryable, no),
                same("HttpConnectTimeoutException", () -> new HttpConnectTimeoutException("connect"), retryable, no),
                same("socket connect timed out", () -> new SocketTimeoutException("Connect timed out"), retryable, no),
                readRetries("SocketTimeoutException (read)", () -> new SocketTimeoutException("Read timed out")),
                readRetries("HttpTimeoutException", () -> new HttpTimeoutException("request timed out")),
                readRetries("InterruptedException", InterruptedException::new),
                readRetries("InterruptedIOException", () -> new InterruptedIOException("interrupted")),
                readRetries("ClosedByInterruptException", ClosedByInterruptException::new),
                new Row("HTTP 429 with Retry-After", "", http(429, "7"), retryable, no, retryable, no, 7L),
                new Row("HTTP 503 with Retry-After", "", http(503, "9"), retryable, no, retryable, no, 9L),
                same("HTTP 408", http(408, null), retryable, no),
                same("HTTP 404 (other 4xx)", http(404, null), permanent, no),
                same("HTTP 409 (other 4xx)", http(409, null), permanent, no),
                readRetries("HTTP 500", http(500, null)),
                readRetries("HTTP 502", http(502, null)),
                readRetries("HTTP 504", http(504, null)),
                readRetries("HTTP 507 (other 5xx)", http(507, null)),
                same("IllegalArgumentException", () -> new IllegalArgumentException("amount < 0"), permanent, no),
                same("*ValidationException", () -> new ValidationException("name missing"), permanent, no),
                new Row("the deadline interrupted the call", "Slow", () -> Step.SLEEP_PAST_DEADLINE, Status.UNKNOWN,
                        EffectApplied.UNKNOWN, retryable, no, null),
                readRetries("anything else", () -> new IllegalStateException("odd")),
                same("a ToolOutcomeException from the body", () -> new ToolOutcomeException(
                        Outcome.permanent("card declined")), permanent, no),
                new Row("a ToolOutcomeException from the check", "Checked", () -> Step.ERROR_IN_BODY, permanent, no,
                        permanent, no, null),
                same("no failure: ok", () -> "fine", Status.OK, EffectApplied.YES));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void theOutcomeIsTheTables(Row row) {
        InMemoryEngine engine = new InMemoryEngine(secret);
        Tools tools = new Tools();
        tools.step = row.step();

        check(engine, tools, "send" + row.tool(), row.status(), row.effect(), row.retryAfterS());
        check(engine, tools, "read" + row.tool(), row.readStatus(), row.readEffect(), row.retryAfterS());
    }

    private static void check(InMemoryEngine engine, Tools tools, String method, Status status, EffectApplied effect,
                              Long retryAfterS) {
        int mark = engine.journal.size();
        tools.bodies.set(0);

        InMemoryEngine.Answer answer = engine.call("t-classify", tools, method, method + "-key");

        assertThat(answer.status()).as(method + " status").isEqualTo(status);
        assertThat(answer.effect()).as(method + " effect_applied").isEqualTo(effect);
        assertThat(answer.retryAfterS()).as(method + " retry_after_s").isEqualTo(retryAfterS);
        assertThat(tools.bodies.get()).as(method + " body runs").isEqualTo(1);
        if (method.endsWith("Slow")) {
            // told apart from an InterruptedException of the body's own: the alarm fired
            assertThat(answer.message()).as(method + " message").contains("deadline reached after");
        }
        List<JournalRecord> written = engine.journal.since(mark);
        assertThat(written).extracting(JournalRecord::type).as(method + " records written")
                .containsExactly(RecordType.INTENT, RecordType.OUTCOME);
        assertThat(written.get(1).outcome()).as(method + " outcome record").isEqualTo(ApiWords.outcome(status));
        assertThat(written.get(1).effectApplied()).as(method + " outcome record effect").isEqualTo(ApiWords.effect(effect));
        // the interrupt that ended a deadline row must not leak into the next call on this thread
        assertThat(Thread.interrupted()).as("interrupt left set").isFalse();
    }
}

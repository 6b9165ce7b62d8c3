package dev.effectful.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** One test per row of the default table in docs/OUTCOMES.md. */
class DefaultTableTest {

    private final Classifier classifier = Classifier.defaults();

    private Classification send(Throwable t) {
        return classifier.classify(t, EffectKind.SEND, ToolOverrides.NONE);
    }

    private static void is(Classification c, Status status, EffectApplied effect) {
        assertThat(c.status()).as("status of %s", c).isEqualTo(status);
        assertThat(c.effect()).as("effect of %s", c).isEqualTo(effect);
    }

    /**
     * A row of the table: what a tool of {@code kind} threw, the status and effect it is classified as, and the
     * message the caller reads ({@code null}: not asserted here).
     */
    record Row(String says, EffectKind kind, Throwable thrown, Status status, EffectApplied effect, String message) {
        @Override
        public String toString() {
            return says;
        }
    }

    private static Row sendRow(String says, Throwable thrown, Status status, EffectApplied effect, String message) {
        return new Row(says, EffectKind.SEND, thrown, status, effect, message);
    }

    private static Row readRow(String says, Throwable thrown, Status status, EffectApplied effect) {
        return new Row(says, EffectKind.READ, thrown, status, effect, null);
    }

    static Stream<Row> rows() {
        return Stream.of(
                // never reached -> retryable/no, whatever the kind
                sendRow("connection refused never reached the service", new ConnectException("Connection refused"),
                        Status.RETRYABLE, EffectApplied.NO, "connection refused: Connection refused"),
                sendRow("unknown host never reached the service", new UnknownHostException("api.nowhere.invalid"),
                        Status.RETRYABLE, EffectApplied.NO, "unknown host: api.nowhere.invalid"),
                sendRow("no route to host never reached the service", new NoRouteToHostException("No route to host"),
                        Status.RETRYABLE, EffectApplied.NO, null),
                sendRow("socket connect timeout never reached the service", new SocketTimeoutException("Connect timed out"),
                        Status.RETRYABLE, EffectApplied.NO, null),
                sendRow("socket connect timeout, lower case", new SocketTimeoutException("connect timed out"),
                        Status.RETRYABLE, EffectApplied.NO, null),
                // request sent, no answer -> unknown/unknown, READ retryable/no
                sendRow("read timeout from an effectful tool is unknown", new SocketTimeoutException("Read timed out"),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, "no answer (read timed out): Read timed out"),
                readRow("read timeout from a read is retryable", new SocketTimeoutException("Read timed out"),
                        Status.RETRYABLE, EffectApplied.NO),
                sendRow("HTTP timeout is unknown", new HttpTimeoutException("request timed out"),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, null),
                readRow("HTTP timeout from a read is retryable", new HttpTimeoutException("request timed out"),
                        Status.RETRYABLE, EffectApplied.NO),
                sendRow("interrupted is unknown", new InterruptedException("sleep interrupted"),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, null),
                sendRow("interrupted IO is unknown", new InterruptedIOException(), Status.UNKNOWN, EffectApplied.UNKNOWN, null),
                sendRow("closed by interrupt is unknown", new ClosedByInterruptException(),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, null),
                readRow("interrupted from a read is retryable", new InterruptedException(), Status.RETRYABLE, EffectApplied.NO),
                // invalid input -> permanent/no
                sendRow("illegal argument is permanent", new IllegalArgumentException("amount must be positive"),
                        Status.PERMANENT, EffectApplied.NO, "invalid argument: amount must be positive"),
                sendRow("number format is permanent", new NumberFormatException("For input string: \"x\""),
                        Status.PERMANENT, EffectApplied.NO, null),
                sendRow("a validation exception is permanent by its name", new OrderValidationException("email is blank"),
                        Status.PERMANENT, EffectApplied.NO, "validation failed: email is blank"),
                sendRow("jakarta validation exception is permanent", new jakarta.validation.ValidationException("bad"),
                        Status.PERMANENT, EffectApplied.NO, null),
                sendRow("a validation exception is permanent through its superclass's name",
                        new jakarta.validation.ConstraintViolationException("size must be <= 10"),
                        Status.PERMANENT, EffectApplied.NO, null),
                // unclassified
                sendRow("unclassified from a SEND tool is unknown", new IllegalStateException("ledger closed"),
                        Status.UNKNOWN, EffectApplied.UNKNOWN, "unexpected IllegalStateException: ledger closed"),
                readRow("unclassified from a READ tool is retryable", new IllegalStateException("ledger closed"),
                        Status.RETRYABLE, EffectApplied.NO));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void aRowOfTheDefaultTable(Row row) {
        Classification c = classifier.classify(row.thrown(), row.kind(), ToolOverrides.NONE);
        is(c, row.status(), row.effect());
        if (row.message() != null) {
            assertThat(c.message()).isEqualTo(row.message());
        }
        assertThat(c.retryAfterS()).as("no Retry-After without a stated one").isNull();
    }

    @Test
    void httpConnectTimeoutIsNotMistakenForItsSuperclassHttpTimeout() {
        Classification c = send(new HttpConnectTimeoutException("HTTP connect timed out"));
        is(c, Status.RETRYABLE, EffectApplied.NO);
        assertThat(c.message()).startsWith("connect timed out");
    }

    @ParameterizedTest
    @EnumSource(value = EffectKind.class, names = "READ", mode = EnumSource.Mode.EXCLUDE)
    void everyEffectfulKindTreatsNoAnswerAsUnknown(EffectKind kind) {
        is(classifier.classify(new HttpTimeoutException("t"), kind, ToolOverrides.NONE), Status.UNKNOWN, EffectApplied.UNKNOWN);
    }

    // unclassified

    @Test
    void unclassifiedNamesTheRootCauseWhenTheWrapperDoesNot() {
        Classification c = send(new RuntimeException("saving order failed", new IllegalStateException("deadlock")));
        assertThat(c.message()).isEqualTo("unexpected RuntimeException: saving order failed (caused by IllegalStateException: deadlock)");
    }

    // cause chain

    @Test
    void theFirstLinkARuleNamesDecides() {
        is(send(new UncheckedIOException(new ConnectException("Connection refused"))), Status.RETRYABLE, EffectApplied.NO);
        is(send(new ExecutionException(new SocketTimeoutException("Read timed out"))), Status.UNKNOWN, EffectApplied.UNKNOWN);
        is(send(new CompletionException(new IllegalArgumentException("bad"))), Status.PERMANENT, EffectApplied.NO);
        is(send(new InvocationTargetException(new UnknownHostException("x"))), Status.RETRYABLE, EffectApplied.NO);
        Classification deep = send(new RuntimeException(new ExecutionException(new UncheckedIOException(
                new IOException("send failed", new ConnectException("Connection refused"))))));
        is(deep, Status.RETRYABLE, EffectApplied.NO);
        assertThat(deep.message()).isEqualTo("connection refused: Connection refused");
    }

    @Test
    void aCycleInTheCauseChainEndsTheWalk() {
        CyclicException a = new CyclicException("a");
        CyclicException b = new CyclicException("b");
        a.cause = b;
        b.cause = a;
        is(send(a), Status.UNKNOWN, EffectApplied.UNKNOWN);
    }

    @Test
    void aVeryDeepChainIsWalkedOnlySoFar() {
        Throwable t = new ConnectException("deep down");
        for (int i = 0; i < 1000; i++) {
            t = new RuntimeException("wrap " + i, t);
        }
        is(send(t), Status.UNKNOWN, EffectApplied.UNKNOWN);
    }

    @Test
    void aToolOutcomeExceptionIsTakenAsTheOutcomeItself() {
        Outcome<Object> stated = Outcome.retryable("ledger busy").withRetryAfterS(7L);
        Classification c = send(new ExecutionException(new ToolOutcomeException(stated, new ConnectException())));
        is(c, Status.RETRYABLE, EffectApplied.NO);
        assertThat(c.retryAfterS()).isEqualTo(7L);
        assertThat(c.message()).isEqualTo("ledger busy");
    }

    // messages

    @Test
    void messagesAreOneCappedLine() {
        String longText = "line one\nline two\r\n\tindented " + "x".repeat(1000);
        Classification c = send(new IllegalStateException(longText));
        assertThat(c.message()).doesNotContain("\n", "\r", "\t").hasSizeLessThanOrEqualTo(Messages.MAX_CHARS)
                .startsWith("unexpected IllegalStateException: line one line two indented xxx").endsWith("…");
    }

    @Test
    void anExceptionWithoutMessageIsStillNamed() {
        assertThat(send(new ConnectException()).message()).isEqualTo("connection refused");
        assertThat(send(new IllegalStateException()).message()).isEqualTo("unexpected IllegalStateException");
    }

    @Test
    void nullExceptionOrKindIsACallerBug() {
        assertThatThrownBy(() -> classifier.classify(null, EffectKind.SEND, ToolOverrides.NONE)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> classifier.classify(new RuntimeException(), null, null)).isInstanceOf(NullPointerException.class);
        is(classifier.classify(new ConnectException(), EffectKind.SEND, null), Status.RETRYABLE, EffectApplied.NO);
    }

    static final class OrderValidationException extends RuntimeException {
        OrderValidationException(String message) {
            super(message);
        }
    }

    static final class CyclicException extends RuntimeException {
        Throwable cause;

        CyclicException(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable getCause() {
            return cause;
        }
    }
}

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One test per row of the default table in docs/OUTCOMES.md. */
class DefaultTableTest {

    private final Classifier classifier = Classifier.defaults();

    private Classification send(Throwable t) {
        return classifier.classify(t, EffectKind.SEND, ToolOverrides.NONE);
    }

    private Classification read(Throwable t) {
        return classifier.classify(t, EffectKind.READ, ToolOverrides.NONE);
    }

    private static void is(Classification c, Status status, EffectApplied effect) {
        assertThat(c.status()).as("status of %s", c).isEqualTo(status);
        assertThat(c.effect()).as("effect of %s", c).isEqualTo(effect);
    }

    // never reached -> retryable/no, whatever the kind

    @Test
    void connectionRefusedNeverReachedTheService() {
        Classification c = send(new ConnectException("Connection refused"));
        is(c, Status.RETRYABLE, EffectApplied.NO);
        assertThat(c.message()).isEqualTo("connection refused: Connection refused");
        assertThat(c.retryAfterS()).isNull();
    }

    @Test
    void unknownHostNeverReachedTheService() {
        Classification c = send(new UnknownHostException("api.nowhere.invalid"));
        is(c, Status.RETRYABLE, EffectApplied.NO);
        assertThat(c.message()).isEqualTo("unknown host: api.nowhere.invalid");
    }

    @Test
    void noRouteToHostNeverReachedTheService() {
        is(send(new NoRouteToHostException("No route to host")), Status.RETRYABLE, EffectApplied.NO);
    }

    @Test
    void httpConnectTimeoutIsNotMistakenForItsSuperclassHttpTimeout() {
        Classification c = send(new HttpConnectTimeoutException("HTTP connect timed out"));
        is(c, Status.RETRYABLE, EffectApplied.NO);
        assertThat(c.message()).startsWith("connect timed out");
    }

    @Test
    void socketConnectTimeoutNeverReachedTheService() {
        is(send(new SocketTimeoutException("Connect timed out")), Status.RETRYABLE, EffectApplied.NO);
        is(send(new SocketTimeoutException("connect timed out")), Status.RETRYABLE, EffectApplied.NO);
    }

    // request sent, no answer -> unknown/unknown, READ retryable/no

    @Test
    void readTimeoutFromAnEffectfulToolIsUnknown() {
        Classification c = send(new SocketTimeoutException("Read timed out"));
        is(c, Status.UNKNOWN, EffectApplied.UNKNOWN);
        assertThat(c.message()).isEqualTo("no answer (read timed out): Read timed out");
    }

    @Test
    void readTimeoutFromAReadIsRetryable() {
        is(read(new SocketTimeoutException("Read timed out")), Status.RETRYABLE, EffectApplied.NO);
    }

    @Test
    void httpTimeoutIsUnknown() {
        is(send(new HttpTimeoutException("request timed out")), Status.UNKNOWN, EffectApplied.UNKNOWN);
        is(read(new HttpTimeoutException("request timed out")), Status.RETRYABLE, EffectApplied.NO);
    }

    @Test
    void interruptedIsUnknown() {
        is(send(new InterruptedException("sleep interrupted")), Status.UNKNOWN, EffectApplied.UNKNOWN);
        is(send(new InterruptedIOException()), Status.UNKNOWN, EffectApplied.UNKNOWN);
        is(send(new ClosedByInterruptException()), Status.UNKNOWN, EffectApplied.UNKNOWN);
        is(read(new InterruptedException()), Status.RETRYABLE, EffectApplied.NO);
    }

    @ParameterizedTest
    @EnumSource(value = EffectKind.class, names = "READ", mode = EnumSource.Mode.EXCLUDE)
    void everyEffectfulKindTreatsNoAnswerAsUnknown(EffectKind kind) {
        is(classifier.classify(new HttpTimeoutException("t"), kind, ToolOverrides.NONE), Status.UNKNOWN, EffectApplied.UNKNOWN);
    }

    // invalid input -> permanent/no

    @Test
    void illegalArgumentIsPermanent() {
        Classification c = send(new IllegalArgumentException("amount must be positive"));
        is(c, Status.PERMANENT, EffectApplied.NO);
        assertThat(c.message()).isEqualTo("invalid argument: amount must be positive");
        is(send(new NumberFormatException("For input string: \"x\"")), Status.PERMANENT, EffectApplied.NO);
    }

    @Test
    void validationExceptionsArePermanentByName() {
        is(send(new OrderValidationException("email is blank")), Status.PERMANENT, EffectApplied.NO);
        is(send(new jakarta.validation.ValidationException("bad")), Status.PERMANENT, EffectApplied.NO);
        // matched through the superclass's name
        is(send(new jakarta.validation.ConstraintViolationException("size must be <= 10")), Status.PERMANENT, EffectApplied.NO);
        assertThat(send(new OrderValidationException("email is blank")).message())
                .isEqualTo("validation failed: email is blank");
    }

    // unclassified

    @Test
    void unclassifiedFromASendToolIsUnknown() {
        Classification c = send(new IllegalStateException("ledger closed"));
        is(c, Status.UNKNOWN, EffectApplied.UNKNOWN);
        assertThat(c.message()).isEqualTo("unexpected IllegalStateException: ledger closed");
    }

    @Test
    void unclassifiedFromAReadToolIsRetryable() {
        is(read(new IllegalStateException("ledger closed")), Status.RETRYABLE, EffectApplied.NO);
    }

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

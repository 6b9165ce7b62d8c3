package dev.effectful.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Status;
import feign.FeignException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/** The HTTP status rows, read by reflection from fakes that have the real carriers' names and shapes. */
class HttpCarrierTest {

    /** Sun, 06 Nov 1994 08:49:07 GMT: the RFC's example date, minus thirty seconds. */
    private static final Instant NOW = Instant.parse("1994-11-06T08:49:07Z");

    private final Classifier classifier = Classifier.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC));

    private static RestClientResponseException spring(int status, Map<String, String> headers) {
        return new RestClientResponseException(status + " from billing", status, HttpHeaders.readOnly(headers));
    }

    private Classification send(Throwable t) {
        return classifier.classify(t, EffectKind.SEND, ToolOverrides.NONE);
    }

    private Classification read(Throwable t) {
        return classifier.classify(t, EffectKind.READ, ToolOverrides.NONE);
    }

    @Test
    void tooManyRequestsWithRetryAfterSeconds() {
        Classification c = send(spring(429, Map.of("Retry-After", "30")));
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.effect()).isEqualTo(EffectApplied.NO);
        assertThat(c.retryAfterS()).isEqualTo(30L);
        assertThat(c.message()).isEqualTo("HTTP 429 from the service: 429 from billing");
    }

    @Test
    void tooManyRequestsWithRetryAfterAsHttpDate() {
        Classification c = send(spring(429, Map.of("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT")));
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.retryAfterS()).isEqualTo(30L);
    }

    @Test
    void retryAfterInThePastMeansNow() {
        assertThat(send(spring(429, Map.of("Retry-After", "Sun, 06 Nov 1994 08:00:00 GMT"))).retryAfterS()).isZero();
    }

    @Test
    void unreadableRetryAfterIsLeftOut() {
        Classification c = send(spring(429, Map.of("Retry-After", "soon")));
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.retryAfterS()).isNull();
    }

    @Test
    void serviceUnavailableIsRetryableWithRetryAfter() {
        Classification c = send(new HttpServerErrorException("503 Service Unavailable", 503, HttpHeaders.readOnly(Map.of("Retry-After", "120"))));
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.effect()).isEqualTo(EffectApplied.NO);
        assertThat(c.retryAfterS()).isEqualTo(120L);
    }

    @Test
    void requestTimeoutIsRetryable() {
        Classification c = send(spring(408, Map.of()));
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.effect()).isEqualTo(EffectApplied.NO);
        assertThat(c.retryAfterS()).isNull();
    }

    @ParameterizedTest
    @CsvSource({"400", "401", "403", "404", "409", "422"})
    void otherClientErrorsArePermanent(int status) {
        Classification c = send(spring(status, Map.of()));
        assertThat(c.status()).isEqualTo(Status.PERMANENT);
        assertThat(c.effect()).isEqualTo(EffectApplied.NO);
    }

    @ParameterizedTest
    @CsvSource({"500", "502", "504", "501", "599"})
    void serverErrorsAreUnknownForEffectfulToolsAndRetryableForReads(int status) {
        Classification c = send(spring(status, Map.of("Retry-After", "5")));
        assertThat(c.status()).isEqualTo(Status.UNKNOWN);
        assertThat(c.effect()).isEqualTo(EffectApplied.UNKNOWN);
        assertThat(c.retryAfterS()).as("a wait is only told to a caller that may retry").isNull();
        Classification r = read(spring(status, Map.of("Retry-After", "5")));
        assertThat(r.status()).isEqualTo(Status.RETRYABLE);
        assertThat(r.effect()).isEqualTo(EffectApplied.NO);
        assertThat(r.retryAfterS()).isEqualTo(5L);
    }

    @Test
    void webClientInTheSpring5ShapeIsReadThroughGetRawStatusCode() {
        WebClientResponseException e = new WebClientResponseException("503 Service Unavailable", 503,
                HttpHeaders.readOnly(Map.of("Retry-After", "9")));
        Classification c = send(e);
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.retryAfterS()).isEqualTo(9L);
    }

    @Test
    void feignStatusAndHeadersAreRead() {
        Map<String, Collection<String>> headers = Map.of("retry-after", List.of("15"));
        Classification c = send(new FeignException.ServiceUnavailable("[503] during [POST] to [/charges]", headers));
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.retryAfterS()).isEqualTo(15L);
        assertThat(send(new FeignException(404, "[404] not found", Map.of())).status()).isEqualTo(Status.PERMANENT);
    }

    @Test
    void feignWithoutAResponseFallsThroughToItsCause() {
        // Feign's RetryableException has status -1 and the I/O error as its cause
        FeignException e = new FeignException(-1, "Connection refused executing POST", Map.of());
        e.initCause(new java.net.ConnectException("Connection refused"));
        assertThat(send(e).status()).isEqualTo(Status.RETRYABLE);
        assertThat(send(new FeignException(-1, "no response", Map.of())).status()).isEqualTo(Status.UNKNOWN);
    }

    @Test
    void jaxRsResponseIsRead() {
        Classification c = send(new WebApplicationException("HTTP 429 Too Many Requests",
                Response.of(429, Map.of("Retry-After", "42"))));
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.retryAfterS()).isEqualTo(42L);
        assertThat(send(new WebApplicationException("HTTP 502 Bad Gateway", Response.of(502, Map.of()))).status())
                .isEqualTo(Status.UNKNOWN);
    }

    @Test
    void aJaxRsExceptionWithoutResponseCarriesNoStatus() {
        assertThat(HttpStatusReader.read(new WebApplicationException("none", null))).isEmpty();
    }

    @Test
    void aCarrierInsideAWrapperIsFound() {
        Classification c = send(new ExecutionException(spring(400, Map.of())));
        assertThat(c.status()).isEqualTo(Status.PERMANENT);
        assertThat(c.message()).startsWith("HTTP 400 from the service");
    }

    @Test
    void anythingElseCarriesNoStatus() {
        assertThat(HttpStatusReader.read(new RuntimeException("500"))).isEmpty();
        assertThat(HttpStatusReader.read(new LooksLikeACarrier())).isEmpty();
    }

    /** Has a status() but is no known carrier: shapes alone must not be trusted. */
    static final class LooksLikeACarrier extends RuntimeException {
        public int status() {
            return 500;
        }
    }
}

package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Tools for the re-entry scenarios, written as an application would: the receiving service is the
 * test's loopback ledger, keyed by the business id a real service would know (order id, address).
 */
public class ReentryTools {

    /** A structured result, so a replay must rebuild the declared generic type, not just a string. */
    public record Receipt(String confirmation, int attempt, Instant at, List<String> lines) {
    }

    private static Receipt receipt(String confirmation, String... lines) {
        return new Receipt(confirmation, Attempt.current().map(Attempt::number).orElse(0),
                Instant.now().truncatedTo(ChronoUnit.MILLIS), List.of(lines));
    }

    // ---- crash mid-call: the effect lands, then the process dies before the answer ----

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge", probe = "findCharge")
    public String charge(@IntentKey String orderId, String memo) throws IOException, InterruptedException {
        return Http.post("/apply-then-hang/charge", orderId, Duration.ofSeconds(120)).body();
    }

    /** The probe asks the service whether the charge exists: a measurement, not a guess. */
    public String findCharge(String orderId, String memo) throws IOException, InterruptedException {
        HttpResponse<String> r = Http.get("/effect/charge", orderId);
        return r.statusCode() == 200 ? r.body() : null;
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "notify_customer")
    public String notifyCustomer(@IntentKey String to, String text) throws IOException, InterruptedException {
        return Http.post("/apply-then-hang/notify_customer", to, Duration.ofSeconds(120)).body();
    }

    // ---- duplicate delivery, slow success, stampede ----

    @EffectfulTool(kind = EffectKind.CREATE, name = "place_order")
    public Receipt placeOrder(@IntentKey String orderId, String note) throws IOException, InterruptedException {
        return receipt(Http.effect("place_order", orderId), note);
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "slow_order")
    public Receipt slowOrder(@IntentKey String orderId, long serviceMillis) throws IOException, InterruptedException {
        HttpResponse<String> r = Http.post("/slow/" + serviceMillis, orderId, Duration.ofSeconds(30));
        return receipt(r.body());
    }

    // ---- a result that could not be stored ----

    /** Holds something that is not data (a live connection, say): it cannot go into the journal. */
    public static final class Session {
        private final String id;

        Session(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }

        public Object getConnection() {
            throw new IllegalStateException("a live connection is not data");
        }

        @Override
        public String toString() {
            return "Session[" + id + "]";
        }
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "open_session")
    public Session openSession(@IntentKey String id) throws IOException, InterruptedException {
        return new Session(Http.effect("open_session", id));
    }

    // ---- 200 with an error body ----

    @EffectfulTool(kind = EffectKind.MONEY, name = "pay", check = "paymentAccepted")
    public HttpResponse<String> pay(@IntentKey String orderId) throws IOException, InterruptedException {
        return Http.post("/error-body", orderId, Duration.ofSeconds(10));
    }

    /** The service's own way of saying no inside a 200. */
    public void paymentAccepted(HttpResponse<String> r) {
        if (r.body().contains("\"status\":\"error\"")) {
            throw new ToolOutcomeException(Outcome.permanent("payment service answered 200 but said: " + r.body()));
        }
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "pay_unchecked")
    public HttpResponse<String> payUnchecked(@IntentKey String orderId) throws IOException, InterruptedException {
        return Http.post("/error-body", orderId, Duration.ofSeconds(10));
    }

    // ---- rate limit, unknown outcome, plain effect ----

    @EffectfulTool(kind = EffectKind.SEND, name = "submit")
    public HttpResponse<String> submit(@IntentKey String id, int status) throws IOException, InterruptedException {
        return Http.post("/status/" + status, id, Duration.ofSeconds(10));
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "ping")
    public String ping(@IntentKey String id) throws IOException, InterruptedException {
        return Http.effect("ping", id);
    }
}

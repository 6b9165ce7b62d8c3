package dev.effectful.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The assistant's tools, written the way an application writes them: plain HTTP calls with no
 * retry, dedup or journal code. Both annotations sit on each method: {@code @Tool} tells
 * LangChain4j what the model may call, {@code @EffectfulTool} tells the agent what the call does to
 * the world. Without the agent these methods run exactly as written.
 */
public class OrderTools {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The mail relay's read timeout: short enough that the slow success outlives it. */
    static final Duration MAIL_TIMEOUT = Duration.ofMillis(1200);

    private final String base;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    public OrderTools(String baseUrl) {
        this.base = baseUrl;
    }

    @Tool(name = "search_products", value = "Searches the catalogue; returns products with sku and price")
    @EffectfulTool(kind = EffectKind.READ, name = "search_products")
    public String searchProducts(@IntentKey @P("what to look for") String query) throws IOException, InterruptedException {
        return get("/products?q=" + enc(query), Duration.ofSeconds(5));
    }

    @Tool(name = "create_order", value = "Places an order for a customer; returns the order with per-line results")
    @EffectfulTool(kind = EffectKind.CREATE, name = "create_order", probe = "findOrder", permanentOn = ServiceRefused.class)
    public String createOrder(@IntentKey @P("customer id") String customerId, @P("skus to order") List<String> skus,
                              @P("note for the warehouse") String note) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("customer_id", customerId).put("note", note);
        skus.forEach(body.putArray("skus")::add);
        return post("/orders", body, Duration.ofSeconds(5));
    }

    /** Probe: the order a lost reply may have created; null when there is none. */
    public String findOrder(String customerId, List<String> skus, String note) throws IOException, InterruptedException {
        return getOrNull("/orders?customer=" + enc(customerId));
    }

    @Tool(name = "send_email", value = "Emails the customer about an order")
    @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findSentEmail", check = "mailAccepted",
            permanentOn = ServiceRefused.class)
    public String sendEmail(@IntentKey @P("order id") String orderId, @IntentKey @P("recipient address") String to,
                            @P("subject line") String subject, @P("message text") String body)
            throws IOException, InterruptedException {
        ObjectNode mail = JSON.createObjectNode().put("order_id", orderId).put("to", to).put("subject", subject).put("body", body);
        return post("/emails", mail, MAIL_TIMEOUT);
    }

    /** Probe: the relay's outbox for this order and recipient; null when nothing went out. */
    public String findSentEmail(String orderId, String to, String subject, String body) throws IOException, InterruptedException {
        return getOrNull("/emails?order=" + enc(orderId) + "&to=" + enc(to));
    }

    /** Check: the relay answers 200 even when it sent nothing; such a reply must not count as ok. */
    public void mailAccepted(String reply) {
        if (reply.contains("\"status\":\"error\"")) {
            throw new ToolOutcomeException(Outcome.retryable("200 from POST /emails with an error body: " + reply));
        }
    }

    @Tool(name = "charge_card", value = "Charges the customer's card on file for an order")
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCharge", keyable = true,
            permanentOn = ServiceRefused.class)
    public String chargeCard(@IntentKey @P("order id") String orderId, @P("amount in cents") long amountCents)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("order_id", orderId).put("amount_cents", amountCents);
        HttpRequest.Builder req = request("/charges", Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        // the processor deduplicates on this key, so even a re-run after a lost reply charges once
        Attempt.current().ifPresent(a -> req.header("Idempotency-Key", a.intentKey()));
        return send(req.build(), "POST /charges");
    }

    /** Probe: the processor's record of a charge for this order; null when there is none. */
    public String findCharge(String orderId, long amountCents) throws IOException, InterruptedException {
        return getOrNull("/charges?order=" + enc(orderId));
    }

    @Tool(name = "cancel_order", value = "Cancels an order; this cannot be undone")
    @EffectfulTool(kind = EffectKind.DESTRUCTIVE, name = "cancel_order", permanentOn = ServiceRefused.class)
    public String cancelOrder(@IntentKey @P("order id") String orderId, @P("why") String reason)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("order_id", orderId).put("reason", reason);
        return post("/cancellations", body, Duration.ofSeconds(5));
    }

    // ---- plain JDK HTTP; the only policy here is what a status code means ----

    /** A 4xx other than 408/429: the service refused and will refuse again. */
    public static final class ServiceRefused extends RuntimeException {
        ServiceRefused(String message) {
            super(message);
        }
    }

    /** A 5xx: the request reached the service and nobody knows what it did. */
    public static final class ServiceFailed extends IOException {
        ServiceFailed(String message) {
            super(message);
        }
    }

    private String get(String path, Duration timeout) throws IOException, InterruptedException {
        return send(request(path, timeout).GET().build(), "GET " + path);
    }

    private String getOrNull(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request(path, Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return null;
        }
        return check(r, "GET " + path);
    }

    private String post(String path, ObjectNode body, Duration timeout) throws IOException, InterruptedException {
        return send(request(path, timeout).POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), "POST " + path);
    }

    private HttpRequest.Builder request(String path, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout).header("Content-Type", "application/json");
    }

    private String send(HttpRequest req, String what) throws IOException, InterruptedException {
        return check(http.send(req, HttpResponse.BodyHandlers.ofString()), what);
    }

    private static String check(HttpResponse<String> r, String what) throws IOException {
        int s = r.statusCode();
        if (s < 300) {
            return r.body();
        }
        String text = s + " from " + what + ": " + r.body();
        if (s == 429 || s == 503) {
            // the JDK client throws nothing that carries a status, so the Retry-After is handed over explicitly
            Long after = r.headers().firstValue("Retry-After").map(Long::valueOf).orElse(null);
            throw new ToolOutcomeException(Outcome.<String>retryable(text).withRetryAfterS(after));
        }
        if (s >= 500) {
            throw new ServiceFailed(text);
        }
        throw new ServiceRefused(text);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8);
    }
}

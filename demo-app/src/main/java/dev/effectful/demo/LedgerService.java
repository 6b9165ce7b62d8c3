package dev.effectful.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The outside world the assistant acts on: a shop, a mail relay and a card processor behind one
 * loopback HTTP server. It runs in the parent process so that its ledger survives the assistant's
 * {@code kill -9}, and it is the only witness the demo trusts for "what really happened".
 *
 * <p>Each injected failure fires once, on the first request that can trigger it, so a second run of
 * the same script meets a healthy service (as a restarted job would).
 */
public final class LedgerService implements AutoCloseable {

    /** One effect the service applied, in the order it applied them. */
    public record Effect(String step, String target, String detail, long atMillis) {
    }

    static final String DISCONTINUED_SKU = "cable-9";
    static final int RATE_LIMIT_SECONDS = 1;
    static final long SLOW_REPLY_MILLIS = 2500;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ledger-http");
        t.setDaemon(true);
        return t;
    });
    private final List<Effect> effects = new ArrayList<>();
    private final List<String> requests = new ArrayList<>();
    private final Map<String, ObjectNode> ordersById = new LinkedHashMap<>();
    private final Map<String, ObjectNode> chargesByKey = new HashMap<>();
    private final CountDownLatch releaseCharge = new CountDownLatch(1);
    private int nextOrder = 1;
    private int nextCharge = 1;
    private long rateLimitedUntil;
    private boolean rateLimitFired;
    private boolean errorBodyFired;
    private boolean slowFired;
    private boolean chargeHangFired;
    private boolean cancelLostReplyFired;
    private int idempotentReplays;
    private int rateLimitedRequests;

    public LedgerService() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        ordersById.put("o-1001", order("o-1001", "c-42", "placed"));
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static ObjectNode order(String id, String customer, String status) {
        ObjectNode o = JSON.createObjectNode();
        o.put("order_id", id).put("customer", customer).put("status", status);
        return o;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            JsonNode body = readBody(ex);
            String route = ex.getRequestMethod() + " " + path;
            synchronized (this) {
                requests.add(route);
            }
            switch (route) {
                case "GET /products" -> reply(ex, 200, products(q.getOrDefault("q", "")));
                case "POST /orders" -> createOrder(ex, body);
                case "GET /orders" -> findOrder(ex, q);
                case "POST /emails" -> sendEmail(ex, body);
                case "GET /emails" -> findEmail(ex, q);
                case "POST /charges" -> charge(ex, body);
                case "GET /charges" -> findCharge(ex, q);
                case "POST /cancellations" -> cancel(ex, body);
                case "GET /ledger" -> reply(ex, 200, ledgerJson());
                default -> reply(ex, 404, "{\"error\":\"no route " + route + "\"}");
            }
        } catch (IOException | RuntimeException e) {
            // a client that was killed or timed out leaves a broken pipe behind; the effect stands
        }
    }

    private static String products(String query) {
        return "{\"query\":\"" + query.replace("\"", "") + "\",\"products\":[{\"sku\":\"dock-1\",\"name\":\"USB-C dock\",\"price_cents\":8900},"
                + "{\"sku\":\"cable-9\",\"name\":\"USB-C cable 2 m\",\"price_cents\":1200}]}";
    }

    private void createOrder(HttpExchange ex, JsonNode body) throws IOException {
        long now = System.currentTimeMillis();
        synchronized (this) {
            if (!rateLimitFired || now < rateLimitedUntil) {
                if (!rateLimitFired) {
                    rateLimitFired = true;
                    rateLimitedUntil = now + RATE_LIMIT_SECONDS * 1000L;
                }
                rateLimitedRequests++;
                ex.getResponseHeaders().add("Retry-After", Long.toString(Math.max(1, (rateLimitedUntil - now + 999) / 1000)));
                reply(ex, 429, "{\"error\":\"rate limited\"}");
                return;
            }
        }
        String customer = body.path("customer_id").asText();
        ObjectNode created;
        synchronized (this) {
            String id = "o-" + nextOrder++;
            created = order(id, customer, "placed");
            ArrayNode lines = created.putArray("lines");
            List<String> applied = new ArrayList<>();
            for (JsonNode sku : body.path("skus")) {
                ObjectNode line = lines.addObject().put("sku", sku.asText());
                // a partial batch: the order is made, one line is refused for good
                if (DISCONTINUED_SKU.equals(sku.asText())) {
                    line.put("applied", "no").put("reason", "discontinued");
                } else {
                    line.put("applied", "yes");
                    applied.add(sku.asText());
                }
            }
            ordersById.put(id, created);
            effects.add(new Effect("create_order", customer, id + " " + applied, now));
        }
        reply(ex, 201, created.toString());
    }

    private void findOrder(HttpExchange ex, Map<String, String> q) throws IOException {
        ObjectNode found = null;
        synchronized (this) {
            for (ObjectNode o : ordersById.values()) {
                if (o.path("customer").asText().equals(q.get("customer")) && o.has("lines")) {
                    found = o;
                    break;
                }
            }
        }
        reply(ex, found == null ? 404 : 200, found == null ? "{\"error\":\"no such order\"}" : found.toString());
    }

    private void sendEmail(HttpExchange ex, JsonNode body) throws IOException {
        boolean errorBody;
        boolean slow;
        synchronized (this) {
            errorBody = !errorBodyFired;
            errorBodyFired = true;
            slow = !errorBody && !slowFired;
            slowFired |= slow;
        }
        if (errorBody) {
            // 200 with an error body: the transport worked, the operation did not
            reply(ex, 200, "{\"status\":\"error\",\"error\":\"mailbox busy, nothing sent\"}");
            return;
        }
        String order = body.path("order_id").asText();
        synchronized (this) {
            effects.add(new Effect("send_email", order, body.path("to").asText() + " \"" + body.path("subject").asText() + "\"",
                    System.currentTimeMillis()));
        }
        if (slow) {
            // slow success: the mail is out, the reply comes after the caller stopped waiting
            sleep(SLOW_REPLY_MILLIS);
        }
        reply(ex, 202, "{\"status\":\"sent\",\"order_id\":\"" + order + "\",\"to\":\"" + body.path("to").asText() + "\"}");
    }

    private void findEmail(HttpExchange ex, Map<String, String> q) throws IOException {
        boolean found;
        synchronized (this) {
            found = effects.stream().anyMatch(e -> e.step().equals("send_email") && e.target().equals(q.get("order"))
                    && e.detail().startsWith(q.getOrDefault("to", "") + " "));
        }
        reply(ex, found ? 200 : 404, found
                ? "{\"status\":\"sent\",\"order_id\":\"" + q.get("order") + "\",\"to\":\"" + q.get("to") + "\"}"
                : "{\"error\":\"no such email\"}");
    }

    private void charge(HttpExchange ex, JsonNode body) throws IOException {
        String key = ex.getRequestHeaders().getFirst("Idempotency-Key");
        String order = body.path("order_id").asText();
        ObjectNode receipt;
        boolean hang;
        synchronized (this) {
            ObjectNode earlier = key == null ? null : chargesByKey.get(key);
            if (earlier != null) {
                // duplicate delivery of a keyed request: one effect, the same answer again
                idempotentReplays++;
                receipt = earlier;
                hang = false;
            } else {
                receipt = JSON.createObjectNode().put("charge_id", "ch-" + nextCharge++).put("order_id", order)
                        .put("amount_cents", body.path("amount_cents").asLong()).put("status", "captured");
                if (key != null) {
                    chargesByKey.put(key, receipt);
                }
                effects.add(new Effect("charge_card", order, receipt.path("charge_id").asText() + " "
                        + receipt.path("amount_cents").asLong() + " cents", System.currentTimeMillis()));
                hang = !chargeHangFired;
                chargeHangFired = true;
                notifyAll();
            }
        }
        if (hang) {
            // kill mid-call: the money has moved; the caller dies before it hears so
            await(releaseCharge);
        }
        reply(ex, 201, receipt.toString());
    }

    private void findCharge(HttpExchange ex, Map<String, String> q) throws IOException {
        String found = null;
        synchronized (this) {
            for (Effect e : effects) {
                if (e.step().equals("charge_card") && e.target().equals(q.get("order"))) {
                    found = "{\"charge_id\":\"" + e.detail().split(" ")[0] + "\",\"order_id\":\"" + e.target()
                            + "\",\"status\":\"captured\"}";
                    break;
                }
            }
        }
        reply(ex, found == null ? 404 : 200, found == null ? "{\"error\":\"no such charge\"}" : found);
    }

    private void cancel(HttpExchange ex, JsonNode body) throws IOException {
        String id = body.path("order_id").asText();
        boolean lostReply;
        synchronized (this) {
            ObjectNode o = ordersById.get(id);
            if (o == null) {
                reply(ex, 404, "{\"error\":\"no such order\"}");
                return;
            }
            if (o.path("status").asText().equals("cancelled")) {
                reply(ex, 409, "{\"error\":\"order " + id + " is already cancelled\"}");
                return;
            }
            o.put("status", "cancelled");
            effects.add(new Effect("cancel_order", id, "cancelled", System.currentTimeMillis()));
            lostReply = !cancelLostReplyFired;
            cancelLostReplyFired = true;
        }
        if (lostReply) {
            // the cancel landed, the gateway lost the answer
            reply(ex, 502, "{\"error\":\"bad gateway\"}");
            return;
        }
        reply(ex, 200, "{\"order_id\":\"" + id + "\",\"status\":\"cancelled\"}");
    }

    /** Waits until a charge has been applied; the crash act kills the assistant then. */
    public synchronized boolean awaitCharge(long timeoutMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (effects.stream().noneMatch(e -> e.step().equals("charge_card"))) {
            long left = end - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    public synchronized List<Effect> effects() {
        return List.copyOf(effects);
    }

    public synchronized int rateLimitedRequests() {
        return rateLimitedRequests;
    }

    public synchronized int idempotentReplays() {
        return idempotentReplays;
    }

    public synchronized List<String> requests() {
        return List.copyOf(requests);
    }

    public synchronized String ledgerJson() {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode list = root.putArray("effects");
        for (Effect e : effects) {
            list.addObject().put("step", e.step()).put("target", e.target()).put("detail", e.detail()).put("at", e.atMillis());
        }
        root.put("rate_limited_requests", rateLimitedRequests);
        root.put("idempotent_replays", idempotentReplays);
        return root.toString();
    }

    private static JsonNode readBody(HttpExchange ex) throws IOException {
        byte[] bytes = ex.getRequestBody().readAllBytes();
        return bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    q.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return q;
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets the handler of the killed caller's charge finish (its reply goes nowhere). */
    public void releaseHangingCharge() {
        releaseCharge.countDown();
    }

    @Override
    public void close() {
        releaseCharge.countDown();
        server.stop(0);
        pool.shutdownNow();
    }
}

package dev.effectful.it.googleadk.app;

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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini's {@code generateContent} on loopback, played offline with the habit that makes real models
 * dangerous: a charge whose answer failed is issued again at once, same order, the amount worded
 * differently. It reads only the contents ADK sends (since the last user text), so it behaves the same
 * for a restarted process.
 */
public final class ScriptedGemini implements AutoCloseable {

    private static final String[] AMOUNTS = {"89 dollars", "$89.00", "8900 cents", "USD 89.00", "eighty-nine dollars"};
    private static final Pattern ORDER = Pattern.compile("o-\\d+");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-gemini");
        t.setDaemon(true);
        return t;
    });
    private final int phrasing;
    private final AtomicInteger callSeq = new AtomicInteger();
    /** The requests served, for the application's report. */
    final AtomicInteger requests = new AtomicInteger();

    /** @param phrasing the first wording used (a restarted model words it differently) */
    public ScriptedGemini(int phrasing) throws IOException {
        this.phrasing = phrasing;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The base URL to give the genai client. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.incrementAndGet();
            byte[] answer;
            int status = 200;
            if (!exchange.getRequestURI().getPath().endsWith(":generateContent")) {
                status = 404;
                answer = "{\"error\":{\"code\":404,\"message\":\"only generateContent is scripted\"}}".getBytes(StandardCharsets.UTF_8);
            } else {
                answer = JSON.writeValueAsBytes(reply(JSON.readTree(exchange.getRequestBody())));
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }

    private ObjectNode reply(JsonNode request) {
        JsonNode contents = request.path("contents");
        int lastUser = -1;
        String order = "o-0";
        for (int i = 0; i < contents.size(); i++) {
            for (JsonNode part : contents.get(i).path("parts")) {
                if (part.has("text") && "user".equals(contents.get(i).path("role").asText())) {
                    Matcher m = ORDER.matcher(part.get("text").asText());
                    if (m.find()) {
                        lastUser = i;
                        order = m.group();
                    }
                }
            }
        }
        List<JsonNode> charges = new ArrayList<>();
        for (int i = lastUser + 1; i < contents.size(); i++) {
            for (JsonNode part : contents.get(i).path("parts")) {
                JsonNode response = part.path("functionResponse");
                if ("charge_card".equals(response.path("name").asText())) {
                    charges.add(response.path("response"));
                }
            }
        }
        if (charges.isEmpty()) {
            return candidate(chargeCall(order, 0));
        }
        JsonNode last = charges.get(charges.size() - 1);
        String text = last.path("result").asText("");
        boolean failed = last.has("error") || "error".equals(last.path("status").asText())
                || (text.startsWith("{\"outcome\":") && !text.startsWith("{\"outcome\":\"ok\""));
        if (failed && charges.size() < 3) {
            return candidate(chargeCall(order, charges.size()));
        }
        ObjectNode part = JSON.createObjectNode().put("text", "charge " + order + ": " + (text.isEmpty() ? last.toString() : text));
        return candidate(part);
    }

    private ObjectNode chargeCall(String order, int retry) {
        ObjectNode call = JSON.createObjectNode();
        ObjectNode fc = call.putObject("functionCall");
        fc.put("id", "call_" + callSeq.incrementAndGet()).put("name", "charge_card");
        fc.putObject("args").put("orderId", order).put("amount", AMOUNTS[(phrasing + retry) % AMOUNTS.length]);
        return call;
    }

    private static ObjectNode candidate(ObjectNode part) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode candidate = root.putArray("candidates").addObject();
        ObjectNode content = candidate.putObject("content").put("role", "model");
        ((ArrayNode) content.putArray("parts")).add(part);
        candidate.put("finishReason", "STOP").put("index", 0);
        root.putObject("usageMetadata").put("promptTokenCount", 10).put("candidatesTokenCount", 5).put("totalTokenCount", 15);
        return root;
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}

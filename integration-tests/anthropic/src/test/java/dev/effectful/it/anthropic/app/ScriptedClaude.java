package dev.effectful.it.anthropic.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A model on loopback that speaks the Messages API's JSON, scripted by turn (each process holds one
 * conversation; the runner may send only what is new, so the turn is counted here, not read from the
 * request): first it asks to charge order {@code o-7}; then (the first answer was lost) it asks again
 * in other words; then it ends the turn. With {@code rateLimitOnce}, the second turn's first request
 * gets a 429 (with {@code retry-after-ms}), so the SDK retries it.
 */
final class ScriptedClaude implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final AtomicBoolean rateLimit;
    /** Answers given (429s not counted): the turn of the one conversation each process has. */
    private final AtomicInteger served = new AtomicInteger();
    final AtomicInteger rateLimited = new AtomicInteger();

    ScriptedClaude(boolean rateLimitOnce) throws IOException {
        this.rateLimit = new AtomicBoolean(rateLimitOnce);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            JsonNode request = JSON.readTree(ex.getRequestBody());
            int turn = served.get();
            if (turn == 1 && rateLimit.compareAndSet(true, false)) {
                rateLimited.incrementAndGet();
                ex.getResponseHeaders().add("retry-after-ms", "50");
                send(ex, 429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}");
                return;
            }
            String tool = request.path("tools").path(0).path("name").asText("charge_card");
            int n = served.incrementAndGet();
            ObjectNode reply = JSON.createObjectNode().put("id", "msg_" + n).put("type", "message")
                    .put("role", "assistant").put("model", request.path("model").asText("claude-test"));
            reply.putNull("stop_sequence");
            reply.putObject("usage").put("input_tokens", 10).put("output_tokens", 10);
            if (turn < 2) {
                ObjectNode use = reply.putArray("content").addObject().put("type", "tool_use").put("id", "toolu_" + n)
                        .put("name", tool);
                use.putObject("input").put("order_id", "o-7")
                        .put("amount", turn == 0 ? "89 dollars" : "USD 89 (retrying the charge)");
                reply.put("stop_reason", "tool_use");
            } else {
                reply.putArray("content").addObject().put("type", "text").put("text", "The order is paid.");
                reply.put("stop_reason", "end_turn");
            }
            send(ex, 200, JSON.writeValueAsString(reply));
        }
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("content-type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

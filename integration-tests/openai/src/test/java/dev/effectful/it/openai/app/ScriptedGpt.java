package dev.effectful.it.openai.app;

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
 * A model on loopback that speaks the Responses API's JSON, scripted by turn (each process holds one
 * conversation, kept server-side as the {@code conversation} parameter asks, so the turn is counted
 * here): first it calls {@code charge_card} for order {@code o-7}; then (the first answer was lost) it
 * calls it again in other words; then it answers in text. With {@code rateLimitOnce}, the second
 * turn's first request gets a 429 (with {@code retry-after-ms}), so the SDK retries it.
 */
final class ScriptedGpt implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final AtomicBoolean rateLimit;
    /** Answers given (429s not counted): the turn of the one conversation. */
    private final AtomicInteger served = new AtomicInteger();
    final AtomicInteger rateLimited = new AtomicInteger();

    ScriptedGpt(boolean rateLimitOnce) throws IOException {
        this.rateLimit = new AtomicBoolean(rateLimitOnce);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            JsonNode request = JSON.readTree(ex.getRequestBody());
            int turn = served.get();
            if (turn == 1 && rateLimit.compareAndSet(true, false)) {
                rateLimited.incrementAndGet();
                ex.getResponseHeaders().add("retry-after-ms", "50");
                send(ex, 429, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}");
                return;
            }
            String tool = request.path("tools").path(0).path("name").asText("charge_card");
            int n = served.incrementAndGet();
            ObjectNode reply = JSON.createObjectNode().put("id", "resp_" + n).put("object", "response")
                    .put("created_at", 1_700_000_000L).put("model", request.path("model").asText("gpt-test"))
                    .put("status", "completed").put("parallel_tool_calls", true).put("tool_choice", "auto")
                    .put("temperature", 1.0).put("top_p", 1.0);
            reply.putNull("error");
            reply.putNull("incomplete_details");
            reply.putNull("instructions");
            reply.putObject("metadata");
            reply.putArray("tools");
            if (turn < 2) {
                ObjectNode arguments = JSON.createObjectNode().put("order_id", "o-7")
                        .put("amount", turn == 0 ? "89 dollars" : "USD 89 (retrying the charge)");
                reply.putArray("output").addObject().put("type", "function_call").put("id", "fc_" + n)
                        .put("call_id", "call_" + n).put("name", tool)
                        .put("arguments", JSON.writeValueAsString(arguments)).put("status", "completed");
            } else {
                ObjectNode message = reply.putArray("output").addObject().put("type", "message").put("id", "msg_" + n)
                        .put("role", "assistant").put("status", "completed");
                message.putArray("content").addObject().put("type", "output_text").put("text", "The order is paid.")
                        .putArray("annotations");
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

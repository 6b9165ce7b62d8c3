package dev.effectful.it.langgraph4j.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenAI's chat completions on loopback, played offline with the habit that makes real models
 * dangerous: a charge whose answer failed is issued again at once, same order, the amount worded
 * differently. It reads only the messages it is sent (since the last user message), so it behaves the
 * same for a restarted process.
 */
public final class ScriptedOpenAi implements AutoCloseable {

    private static final String[] AMOUNTS = {"89 dollars", "$89.00", "8900 cents", "USD 89.00", "eighty-nine dollars"};
    private static final Pattern ORDER = Pattern.compile("o-\\d+");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-openai");
        t.setDaemon(true);
        return t;
    });
    private final int phrasing;
    private final AtomicInteger callSeq = new AtomicInteger();

    /** @param phrasing the first wording used (a restarted model words it differently) */
    public ScriptedOpenAi(int phrasing) throws IOException {
        this.phrasing = phrasing;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The base URL to give the OpenAI client. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] answer = JSON.writeValueAsBytes(reply(JSON.readTree(exchange.getRequestBody())));
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }

    private ObjectNode reply(JsonNode request) {
        JsonNode messages = request.path("messages");
        int lastUser = -1;
        String order = "o-0";
        for (int i = 0; i < messages.size(); i++) {
            if ("user".equals(messages.get(i).path("role").asText())) {
                lastUser = i;
                Matcher m = ORDER.matcher(messages.get(i).path("content").toString());
                order = m.find() ? m.group() : "o-0";
            }
        }
        Map<String, String> toolOfCall = new HashMap<>();
        List<String> charges = new ArrayList<>();
        for (int i = lastUser + 1; i < messages.size(); i++) {
            JsonNode msg = messages.get(i);
            for (JsonNode call : msg.path("tool_calls")) {
                toolOfCall.put(call.path("id").asText(), call.path("function").path("name").asText());
            }
            if ("tool".equals(msg.path("role").asText())
                    && "charge_card".equals(toolOfCall.get(msg.path("tool_call_id").asText()))) {
                charges.add(msg.path("content").asText(""));
            }
        }
        if (charges.isEmpty()) {
            return toolCall(order, 0);
        }
        String last = charges.get(charges.size() - 1);
        if (!last.startsWith("done:") && charges.size() < 3) {
            return toolCall(order, charges.size());
        }
        ObjectNode root = completion("stop");
        ObjectNode message = (ObjectNode) root.path("choices").get(0).path("message");
        message.put("content", "charge " + order + ": " + last);
        return root;
    }

    private ObjectNode toolCall(String order, int retry) {
        ObjectNode root = completion("tool_calls");
        ObjectNode message = (ObjectNode) root.path("choices").get(0).path("message");
        message.putNull("content");
        ObjectNode call = message.putArray("tool_calls").addObject();
        call.put("id", "call_" + callSeq.incrementAndGet()).put("type", "function");
        String args = JSON.createObjectNode().put("orderId", order)
                .put("amount", AMOUNTS[(phrasing + retry) % AMOUNTS.length]).toString();
        call.putObject("function").put("name", "charge_card").put("arguments", args);
        return root;
    }

    private static ObjectNode completion(String finishReason) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", "chatcmpl-scripted").put("object", "chat.completion").put("created", 0).put("model", "gpt-4o-mini");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", finishReason);
        choice.putObject("message").put("role", "assistant");
        root.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
        return root;
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}

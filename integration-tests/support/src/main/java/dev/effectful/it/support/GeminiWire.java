package dev.effectful.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.effectful.it.support.ScriptedModel.JSON;

/**
 * Gemini's {@code generateContent}, scripted as a {@link RephrasedRetry}: it reads only the contents
 * it is sent since the last user text naming an order. Any other endpoint gets a 404, so a client that
 * starts asking for something new fails loudly rather than on a made-up answer.
 */
public final class GeminiWire implements WireFormat {

    private final RephrasedRetry script;
    private final AtomicInteger callSeq = new AtomicInteger();

    /** @param phrasing the first wording used (a restarted model words it differently) */
    public GeminiWire(int phrasing) {
        this.script = new RephrasedRetry(phrasing);
    }

    @Override
    public Reply answer(String path, JsonNode request) throws IOException {
        if (!path.endsWith(":generateContent")) {
            return Reply.of(404, "{\"error\":{\"code\":404,\"message\":\"only generateContent is scripted\"}}", Map.of());
        }
        return Reply.ok(JSON.writeValueAsBytes(reply(request)));
    }

    private ObjectNode reply(JsonNode request) {
        JsonNode contents = request.path("contents");
        int lastUser = -1;
        String order = "o-0";
        for (int i = 0; i < contents.size(); i++) {
            for (JsonNode part : contents.get(i).path("parts")) {
                if (part.has("text") && "user".equals(contents.get(i).path("role").asText())) {
                    String found = RephrasedRetry.order(part.get("text").asText());
                    if (found != null) {
                        lastUser = i;
                        order = found;
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
        // ADK reports a tool's failure in any of three ways, by version and by how the tool failed
        boolean failed = last.has("error") || "error".equals(last.path("status").asText())
                || (text.startsWith("{\"outcome\":") && !text.startsWith("{\"outcome\":\"ok\""));
        if (failed && charges.size() < RephrasedRetry.MAX_CHARGES) {
            return candidate(chargeCall(order, charges.size()));
        }
        ObjectNode part = JSON.createObjectNode().put("text", "charge " + order + ": " + (text.isEmpty() ? last.toString() : text));
        return candidate(part);
    }

    private ObjectNode chargeCall(String order, int retry) {
        ObjectNode call = JSON.createObjectNode();
        ObjectNode fc = call.putObject("functionCall");
        fc.put("id", "call_" + callSeq.incrementAndGet()).put("name", "charge_card");
        fc.putObject("args").put("orderId", order).put("amount", script.amount(retry));
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
}

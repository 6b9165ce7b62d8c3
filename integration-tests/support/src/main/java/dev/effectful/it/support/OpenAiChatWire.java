package dev.effectful.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.effectful.it.support.ScriptedModel.JSON;

/**
 * OpenAI's chat completions ({@code POST .../chat/completions}), scripted as a {@link RephrasedRetry}:
 * it reads only the messages it is sent since the last user message. The tool it calls is the request's
 * first tool ({@code charge_card} when none is sent). Tool results are read both as {@code tool}
 * messages and as the user message whose JSON text carries {@code tool_result}, which is how Koog
 * sends them.
 */
public final class OpenAiChatWire implements WireFormat {

    private final RephrasedRetry script;
    private final String basePath;
    private final AtomicInteger callSeq = new AtomicInteger();

    /**
     * @param phrasing the first wording used (a restarted model words it differently)
     * @param basePath what the client wants after the address ({@code ""} when it adds {@code v1/} itself)
     */
    public OpenAiChatWire(int phrasing, String basePath) {
        this.script = new RephrasedRetry(phrasing);
        this.basePath = basePath;
    }

    @Override
    public String basePath() {
        return basePath;
    }

    @Override
    public Reply answer(String path, JsonNode request) throws IOException {
        return Reply.ok(JSON.writeValueAsBytes(reply(request)));
    }

    private ObjectNode reply(JsonNode request) {
        String tool = request.path("tools").path(0).path("function").path("name").asText("charge_card");
        JsonNode messages = request.path("messages");
        int lastUser = -1;
        String order = "o-0";
        for (int i = 0; i < messages.size(); i++) {
            if ("user".equals(messages.get(i).path("role").asText()) && toolResult(messages.get(i)) == null) {
                lastUser = i;
                String found = RephrasedRetry.order(messages.get(i).path("content").toString());
                order = found != null ? found : "o-0";
            }
        }
        Map<String, String> toolOfCall = new HashMap<>();
        List<String> charges = new ArrayList<>();
        for (int i = lastUser + 1; i < messages.size(); i++) {
            JsonNode msg = messages.get(i);
            for (JsonNode call : msg.path("tool_calls")) {
                toolOfCall.put(call.path("id").asText(), call.path("function").path("name").asText());
            }
            JsonNode asText = toolResult(msg);
            if ("tool".equals(msg.path("role").asText()) && tool.equals(toolOfCall.get(msg.path("tool_call_id").asText()))) {
                charges.add(unquoted(msg.path("content").asText("")));
            } else if (asText != null && tool.equals(asText.path("tool_name").asText())) {
                charges.add(unquoted(asText.path("tool_result").asText("")));
            }
        }
        if (charges.isEmpty()) {
            return toolCall(tool, order, 0);
        }
        String last = charges.get(charges.size() - 1);
        if (!last.startsWith("done:") && charges.size() < RephrasedRetry.MAX_CHARGES) {
            return toolCall(tool, order, charges.size());
        }
        ObjectNode root = completion("stop");
        ObjectNode message = (ObjectNode) root.path("choices").get(0).path("message");
        message.put("content", "charge " + order + ": " + last);
        return root;
    }

    /**
     * A tool result Koog sends as a user message's JSON text ({@code tool_call_id}, {@code tool_name},
     * {@code tool_result}) rather than as a {@code tool} message; null for any other message.
     */
    private static JsonNode toolResult(JsonNode message) {
        String content = message.path("content").asText("");
        if (!content.startsWith("{") || !content.contains("\"tool_result\"")) {
            return null;
        }
        try {
            return JSON.readTree(content);
        } catch (IOException e) {
            return null;
        }
    }

    /** A tool's result may arrive JSON-encoded ({@code "\"done:...\""}). */
    private static String unquoted(String content) {
        return content.length() > 1 && content.startsWith("\"") && content.endsWith("\"")
                ? content.substring(1, content.length() - 1) : content;
    }

    private ObjectNode toolCall(String tool, String order, int retry) {
        ObjectNode root = completion("tool_calls");
        ObjectNode message = (ObjectNode) root.path("choices").get(0).path("message");
        message.putNull("content");
        ObjectNode call = message.putArray("tool_calls").addObject();
        call.put("id", "call_" + callSeq.incrementAndGet()).put("type", "function");
        String args = JSON.createObjectNode().put("orderId", order).put("amount", script.amount(retry)).toString();
        call.putObject("function").put("name", tool).put("arguments", args);
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
}

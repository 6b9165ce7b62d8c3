package dev.effectful.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import static dev.effectful.it.support.ScriptedModel.JSON;

/** Anthropic's Messages API ({@code POST /v1/messages}), as a {@link TurnScript}. */
public final class AnthropicMessagesWire extends TurnScript {

    /** @param rateLimitOnce whether the second turn's first request is refused with a 429 */
    public AnthropicMessagesWire(boolean rateLimitOnce) {
        super(rateLimitOnce);
    }

    @Override
    protected String rateLimitBody() {
        return "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}";
    }

    @Override
    protected ObjectNode toolCall(int n, JsonNode request, String tool, ObjectNode arguments) {
        ObjectNode reply = message(n, request);
        reply.putArray("content").addObject().put("type", "tool_use").put("id", "toolu_" + n).put("name", tool)
                .set("input", arguments);
        reply.put("stop_reason", "tool_use");
        return reply;
    }

    @Override
    protected ObjectNode text(int n, JsonNode request, String text) {
        ObjectNode reply = message(n, request);
        reply.putArray("content").addObject().put("type", "text").put("text", text);
        reply.put("stop_reason", "end_turn");
        return reply;
    }

    private static ObjectNode message(int n, JsonNode request) {
        ObjectNode reply = JSON.createObjectNode().put("id", "msg_" + n).put("type", "message")
                .put("role", "assistant").put("model", request.path("model").asText("claude-test"));
        reply.putNull("stop_sequence");
        reply.putObject("usage").put("input_tokens", 10).put("output_tokens", 10);
        return reply;
    }
}

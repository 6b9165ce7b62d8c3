package dev.effectful.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;

import static dev.effectful.it.support.ScriptedModel.JSON;

/**
 * OpenAI's Responses API ({@code POST /v1/responses}), as a {@link TurnScript}: the conversation is kept
 * server-side (the {@code conversation} parameter), which is why the turn is counted, not read.
 */
public final class OpenAiResponsesWire extends TurnScript {

    /** @param rateLimitOnce whether the second turn's first request is refused with a 429 */
    public OpenAiResponsesWire(boolean rateLimitOnce) {
        super(rateLimitOnce);
    }

    @Override
    public String basePath() {
        return "/v1";
    }

    @Override
    protected String rateLimitBody() {
        return "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}";
    }

    @Override
    protected ObjectNode toolCall(int n, JsonNode request, String tool, ObjectNode arguments) throws IOException {
        ObjectNode reply = response(n, request);
        reply.putArray("output").addObject().put("type", "function_call").put("id", "fc_" + n)
                .put("call_id", "call_" + n).put("name", tool)
                .put("arguments", JSON.writeValueAsString(arguments)).put("status", "completed");
        return reply;
    }

    @Override
    protected ObjectNode text(int n, JsonNode request, String text) {
        ObjectNode reply = response(n, request);
        ObjectNode message = reply.putArray("output").addObject().put("type", "message").put("id", "msg_" + n)
                .put("role", "assistant").put("status", "completed");
        message.putArray("content").addObject().put("type", "output_text").put("text", text).putArray("annotations");
        return reply;
    }

    private static ObjectNode response(int n, JsonNode request) {
        ObjectNode reply = JSON.createObjectNode().put("id", "resp_" + n).put("object", "response")
                .put("created_at", 1_700_000_000L).put("model", request.path("model").asText("gpt-test"))
                .put("status", "completed").put("parallel_tool_calls", true).put("tool_choice", "auto")
                .put("temperature", 1.0).put("top_p", 1.0);
        reply.putNull("error");
        reply.putNull("incomplete_details");
        reply.putNull("instructions");
        reply.putObject("metadata");
        reply.putArray("tools");
        return reply;
    }
}

package dev.effectful.instrumentation.mcp;

import dev.effectful.agent.bridge.Frameworks;
import io.modelcontextprotocol.spec.McpSchema;
import net.bytebuddy.asm.Advice;

import java.util.Map;

/**
 * Inlined into {@code McpAsyncClient.callTool(CallToolRequest)} (which {@code McpSyncClient.callTool}
 * calls on the caller's thread): a call made in a task goes out with the task's entry in its
 * {@code _meta}, under {@code dev.effectful/task}. The request is a record, so a new one replaces the
 * argument; an entry the application set itself is kept.
 */
final class CallToolAdvice {

    private CallToolAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@Advice.Argument(value = 0, readOnly = false) McpSchema.CallToolRequest request) {
        if (request != null) {
            Map<String, Object> meta = Frameworks.remoteTaskMeta("mcp", request.meta());
            if (meta != null) {
                request = new McpSchema.CallToolRequest(request.name(), request.arguments(), meta);
            }
        }
    }
}

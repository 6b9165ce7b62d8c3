package dev.effectful.instrumentation.mcp;

import dev.effectful.agent.bridge.Frameworks;
import io.modelcontextprotocol.spec.McpSchema;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

import java.util.Map;

/**
 * Inlined into {@code McpAsyncClient.callTool(CallToolRequest)} (which {@code McpSyncClient.callTool}
 * calls on the caller's thread): a call made in a task goes out with the task's entry in its
 * {@code _meta}, under {@code dev.effectful/task}. The request is a record, so a new one replaces the
 * argument; an entry the application set itself is kept.
 *
 * <p>The parameter is declared {@code Object}: Byte Buddy reads the advice method's signature by
 * reflection in the agent's loader, which cannot see the SDK. The body names the SDK's types; it runs
 * only inlined, in the SDK's own class.
 */
final class CallToolAdvice {

    private CallToolAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object argument) {
        if (argument instanceof McpSchema.CallToolRequest request) {
            Map<String, Object> meta = Frameworks.remoteTaskMeta("mcp", request.meta());
            if (meta != null) {
                argument = new McpSchema.CallToolRequest(request.name(), request.arguments(), meta);
            }
        }
    }
}

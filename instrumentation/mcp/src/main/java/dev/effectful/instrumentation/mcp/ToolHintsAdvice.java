package dev.effectful.instrumentation.mcp;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Inlined into the constructors of the SDK's tool specifications, beside {@link ToolHandlerAdvice}: the
 * tool the server will register and list is replaced by the same tool with the hints of the guarded tool
 * of its name ({@code effectful.mcp.hints}). Every way a server gets a tool (its builder's {@code tool},
 * {@code toolCall}, a specification's builder, {@code addTool}, Spring AI's tool callbacks) builds one of
 * these records, so {@code tools/list} carries the hints whichever way the application registered it.
 *
 * <p>The parameter is declared {@code Object}, as in {@link CallToolAdvice}: the agent's loader reads the
 * advice's signature and cannot see the SDK. The agent hands back the argument itself whenever it adds
 * nothing or fails, so the tool is then exactly what its author wrote.
 */
final class ToolHintsAdvice {

    private ToolHintsAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object tool) {
        tool = Frameworks.hintedTool("mcp", tool);
    }
}

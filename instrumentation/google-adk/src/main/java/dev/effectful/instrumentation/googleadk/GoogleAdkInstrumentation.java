package dev.effectful.instrumentation.googleadk;

import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;


/**
 * Google ADK Java: every tool call of an agent run ({@code Runner.runAsync(userId, sessionId, ...)})
 * runs in the task of its session, the session id being the task id and the session's user the actor.
 * A session id is the application's own and outlives the process (a persistent session service, or the
 * same id given to a new in-memory session), so after a crash the same conversation finds its unknown
 * calls and probes them instead of running them again.
 *
 * <p>Where: {@code Functions.callTool(BaseTool, Map, ToolContext)}, the one place ADK's function-call
 * handling ({@code Functions.handleFunctionCalls}) starts a tool, and {@code FunctionTool.runAsync(Map,
 * ToolContext)}, the public entry of the tools built by {@code FunctionTool.create}. Both run the
 * tool's method on the calling thread, whatever scheduler ADK subscribed them on. A version where
 * neither exists in that shape is left as it is: each tool call is then its own task.
 *
 * <p>Not covered: live (bidirectional streaming) runs, whose tools ADK starts elsewhere, and tools that
 * return an RxJava {@code Single}/{@code Maybe}, whose work happens when ADK subscribes, after the
 * point advised has returned.
 */
public final class GoogleAdkInstrumentation extends NamedInstrumentation {

    static final String FUNCTIONS = "com/google/adk/flows/llmflows/Functions";
    static final String FUNCTION_TOOL = "com/google/adk/tools/FunctionTool";
    private static final String TOOL_CONTEXT = "com.google.adk.tools.ToolContext";

    /**
     * Built when asked, never in a static field: the agent instantiates every instrumentation at
     * premain, and a static matcher would load Byte Buddy on every application's start path.
     */
    static ElementMatcher<MethodDescription> toolCall(String internalName) {
        return FUNCTIONS.equals(internalName)
                ? concreteMethod("callTool", 3, 2, TOOL_CONTEXT)
                : concreteMethod("runAsync", 2, 1, TOOL_CONTEXT);
    }

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public GoogleAdkInstrumentation() {
        super("google-adk", FUNCTIONS, FUNCTION_TOOL);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return inlinedIn(internalName, ToolCallAdvice.NAME, toolCall(internalName));
    }
}

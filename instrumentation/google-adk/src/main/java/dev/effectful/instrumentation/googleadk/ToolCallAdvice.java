package dev.effectful.instrumentation.googleadk;

import com.google.adk.agents.ReadonlyContext;
import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into the points where Google ADK runs one tool call with its {@code ToolContext}: opens the
 * task of the call's session (its id) with the session's user as the actor, when no task is current;
 * closes it when the call returns or throws. A {@code FunctionTool} invokes the tool's method on the
 * calling thread inside these points, so the task is current in the method's body, whichever RxJava
 * thread ADK runs the call on. {@link Frameworks#openTask} opens nothing when a task is current: an
 * explicit {@code Task.open} wins, and the inner of the two advised points joins the outer one's task.
 *
 * <p>The arguments are read as {@code Object}s so that Byte Buddy never resolves an ADK type in the
 * agent's loader; the cast is resolved in ADK's own loader. Every throwable is suppressed: an ADK whose
 * context has another shape opens nothing, and the call runs as without the agent.
 */
final class ToolCallAdvice {

    /** The binary name, for describing this class from its class file. */
    static final String NAME = "dev.effectful.instrumentation.googleadk.ToolCallAdvice";

    private ToolCallAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.AllArguments Object[] args) {
        for (Object arg : args) {
            if (arg instanceof ReadonlyContext) {
                ReadonlyContext context = (ReadonlyContext) arg;
                return Frameworks.openTask("google-adk", context.sessionId(), context.userId());
            }
        }
        return null;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.closeTask(token);
    }
}

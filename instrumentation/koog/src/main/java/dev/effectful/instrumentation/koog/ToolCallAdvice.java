package dev.effectful.instrumentation.koog;

import ai.koog.agents.core.agent.context.AIAgentContext;
import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into Koog's {@code ContextualAgentEnvironment.executeTool(toolCall, continuation)}, the one
 * point every tool call of an agent run goes through: opens the task of the run's id when no task is
 * current, and closes it when the method returns. The method is a Kotlin {@code suspend} function: it
 * returns at its first real suspension and is invoked again, with its continuation, when it resumes;
 * the run id is read from the environment's own context field, not from the arguments (null on a
 * resumption), so each piece of the call runs in the same task. A tool method that does not suspend runs
 * whole inside one piece, on one thread.
 *
 * <p>The field is read as {@code Object} so that Byte Buddy never resolves a Koog type in the agent's
 * loader; the cast is resolved in Koog's own loader. Every throwable is suppressed: a Koog whose context
 * has another shape opens nothing, and the call runs as without the agent.
 */
final class ToolCallAdvice {

    /** The binary name, for describing this class from its class file. */
    static final String NAME = "dev.effectful.instrumentation.koog.ToolCallAdvice";

    private ToolCallAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.FieldValue("context") Object context) {
        if (!(context instanceof AIAgentContext)) {
            return null;
        }
        return Frameworks.openTask("koog", ((AIAgentContext) context).getRunId(), null);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.closeTask(token);
    }
}

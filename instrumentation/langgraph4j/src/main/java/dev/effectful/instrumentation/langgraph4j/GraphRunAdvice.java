package dev.effectful.instrumentation.langgraph4j;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;
import org.bsc.langgraph4j.RunnableConfig;

import java.util.Optional;

/**
 * Inlined into LangGraph4j's {@code CompiledGraph} where a run, a node action or a conditional edge (the
 * agent executor runs its tools in one) is evaluated with its {@code RunnableConfig}: opens the task of
 * the config's thread id when no task is current, and closes it when the method returns or throws. A
 * whole {@code invokeFinal} without a thread id gets a task of its own (the model's rephrased retries in
 * that run are still caught); a single step without one opens nothing. {@link Frameworks#openTask}
 * opens nothing when a task is current: an explicit {@code Task.open} wins, and the steps of an
 * {@code invoke} join the run's task.
 *
 * <p>The arguments are read as {@code Object}s so that Byte Buddy never resolves a LangGraph4j type in
 * the agent's loader; the cast is resolved in LangGraph4j's own loader. Every throwable is suppressed:
 * a LangGraph4j whose config has another shape opens nothing, and the run goes on as without the agent.
 */
final class GraphRunAdvice {

    /** The binary name, for describing this class from its class file. */
    static final String NAME = "dev.effectful.instrumentation.langgraph4j.GraphRunAdvice";

    private GraphRunAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.Origin("#m") String method, @Advice.AllArguments Object[] args) {
        for (Object arg : args) {
            if (arg instanceof RunnableConfig) {
                Optional<String> thread = ((RunnableConfig) arg).threadId();
                if (thread.isPresent()) {
                    return Frameworks.openTask("langgraph4j", thread.get(), null);
                }
                return "invokeFinal".equals(method) ? Frameworks.openTask("langgraph4j", null, null) : null;
            }
        }
        return null;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.closeTask(token);
    }
}

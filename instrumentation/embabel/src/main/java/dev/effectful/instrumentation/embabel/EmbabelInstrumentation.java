package dev.effectful.instrumentation.embabel;

import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

/**
 * Embabel ({@code com.embabel.agent:embabel-agent-api}): a tool loop of an agent process runs in the task
 * of the process id, with no {@code Task.open}. Embabel makes that id for each process it runs, so it is
 * not the same after a restart: a process that must survive one is run inside a task of a stable id (an
 * order or conversation id), which then wins.
 *
 * <p>Where: {@code DefaultToolLoop.execute(messages, tools, parser)} (0.5), the loop every LLM call with
 * tools goes through; {@code ParallelToolLoop} inherits it and hands tool calls to a pool, which the agent
 * already carries the task through. The process is Embabel's thread-bound {@code AgentProcess.get()},
 * set while an action runs. A version without that method or class opens nothing: the loop runs as
 * without the agent, each tool call then its own task.
 */
public final class EmbabelInstrumentation extends NamedInstrumentation {

    static final String LOOP = "com/embabel/agent/spi/loop/support/DefaultToolLoop";
    static final String PROCESS = "com.embabel.agent.core.AgentProcess";

    /** Built when asked, never in a static field: a static matcher would load Byte Buddy at every premain. */
    static ElementMatcher<MethodDescription> execute() {
        return concreteMethod("execute", 3, 0, "java.util.List").and(takesArgument(1, named("java.util.List")));
    }

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public EmbabelInstrumentation() {
        super("embabel", LOOP);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return inlinedIn(internalName, ToolLoopAdvice.NAME, execute());
    }
}

package dev.effectful.instrumentation.langgraph4j;

import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;


/**
 * LangGraph4j (the graph runtime under its LangChain4j {@code AgentExecutor}): a graph run with a
 * thread id ({@code RunnableConfig.builder().threadId(..)}) runs in the task of that thread id, so the
 * tools its nodes and edges call (through LangChain4j's tool executors) share one task, also after a
 * restart that resumes the same thread. A run without a thread id is a task of its own.
 *
 * <p>Where, in {@code CompiledGraph} (1.6 to at least 1.8): {@code invokeFinal(GraphInput,
 * RunnableConfig)}, which every {@code invoke} ends in and which drives the run on the calling thread;
 * {@code nextNodeId(EdgeValue, Map, String, RunnableConfig)}, where a conditional edge's action runs
 * (the agent executor's {@code executeTools}); and {@code AsyncNodeGenerator.applyAction(.., RunnableConfig)},
 * where a node's action runs. The last two also cover a run consumed through {@code stream(..)}, step by
 * step, when it has a thread id. A version without these methods in that shape is left as it is.
 */
public final class LangGraph4jInstrumentation extends NamedInstrumentation {

    static final String COMPILED_GRAPH = "org/bsc/langgraph4j/CompiledGraph";
    static final String NODE_GENERATOR = "org/bsc/langgraph4j/CompiledGraph$AsyncNodeGenerator";
    private static final String CONFIG = "org.bsc.langgraph4j.RunnableConfig";

    /**
     * Built when asked, never in a static field: the agent instantiates every instrumentation at
     * premain, and a static matcher would load Byte Buddy on every application's start path.
     */
    static ElementMatcher<MethodDescription> graphStep(String internalName) {
        if (NODE_GENERATOR.equals(internalName)) {
            return concreteMethod("applyAction", 4, 3, CONFIG);
        }
        return concreteMethod("invokeFinal", 2, 1, CONFIG).or(concreteMethod("nextNodeId", 4, 3, CONFIG));
    }

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public LangGraph4jInstrumentation() {
        super("langgraph4j", COMPILED_GRAPH, NODE_GENERATOR);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return inlinedIn(internalName, GraphRunAdvice.NAME, graphStep(internalName));
    }
}

package dev.effectful.instrumentation.langchain4j;

import dev.effectful.instrumentation.api.LibraryInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;

import java.util.List;
import java.util.Set;

/**
 * LangChain4j 1.x {@code AiServices}: every invocation of an AI-service method runs in a task when the
 * caller has none. The task id is the {@code @MemoryId} argument (the conversation), the actor the
 * {@code @UserName} argument; without a memory id the invocation gets a task of its own, so the
 * model's rephrased retries inside one {@code chat(...)} are still recognised as repeats.
 *
 * <p>Where: the proxy's {@code InvocationHandler}, an anonymous class in
 * {@code DefaultAiServices.build()} (1.0 to at least 1.19), method
 * {@code invoke(Object, Method, Object[])}. Every AI-service call enters there, on the caller's
 * thread, before LangChain4j builds its {@code InvocationContext}. A version whose class has another
 * shape is left as it is ({@link InvocationHandlerShape}): its tool calls are then each their own task,
 * as without this instrumentation.
 */
public final class LangChain4jInstrumentation implements LibraryInstrumentation {

    static final String LIBRARY = "langchain4j";
    static final String HANDLER = "dev/langchain4j/service/DefaultAiServices$1";

    @Override
    public String library() {
        return LIBRARY;
    }

    @Override
    public Set<String> classes() {
        return Set.of(HANDLER);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return HANDLER.equals(internalName) ? List.of(new InvocationHandlerShape()) : List.of();
    }
}

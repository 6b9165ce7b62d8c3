package dev.effectful.instrumentation.langgraph4j;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The methods the advice is matched to exist in the LangGraph4j this module compiles against (read from
 * its class files, as the agent reads them): a new LangGraph4j that renames them fails here, not silently
 * in an application whose runs would then open no task.
 */
class LangGraph4jShapeTest {

    private final TypePool pool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(),
            ClassFileLocator.ForClassLoader.of(LangGraph4jShapeTest.class.getClassLoader()), TypePool.Default.ReaderMode.FAST);

    @Test
    void theRunAndTheConditionalEdgeOfCompiledGraphAreAdvised() {
        assertThat(advised(LangGraph4jInstrumentation.COMPILED_GRAPH)).containsExactlyInAnyOrder("invokeFinal", "nextNodeId");
    }

    @Test
    void aNodesActionIsAdvised() {
        assertThat(advised(LangGraph4jInstrumentation.NODE_GENERATOR)).containsExactly("applyAction");
    }

    private List<String> advised(String internalName) {
        TypeDescription type = pool.describe(internalName.replace('/', '.')).resolve();
        return type.getDeclaredMethods().filter(LangGraph4jInstrumentation.graphStep(internalName)).stream()
                .map(MethodDescription::getName).toList();
    }
}

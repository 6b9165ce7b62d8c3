package dev.effectful.instrumentation.googleadk;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The methods the advice is matched to exist, once each, in the ADK this module compiles against (read
 * from its class files, as the agent reads them): a new ADK that renames them fails here, not silently
 * in an application whose tool calls would then open no task.
 */
class GoogleAdkShapeTest {

    private final TypePool pool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(),
            ClassFileLocator.ForClassLoader.of(GoogleAdkShapeTest.class.getClassLoader()), TypePool.Default.ReaderMode.FAST);

    @Test
    void functionsCallToolIsAdvisedAndNothingElseThere() {
        assertThat(advised(GoogleAdkInstrumentation.FUNCTIONS)).containsExactly("callTool");
    }

    @Test
    void functionToolRunAsyncIsAdvisedAndNothingElseThere() {
        assertThat(advised(GoogleAdkInstrumentation.FUNCTION_TOOL)).containsExactly("runAsync");
    }

    @Test
    void theInstrumentationNamesBothClassesAndGivesAdviceForEach() {
        GoogleAdkInstrumentation instrumentation = new GoogleAdkInstrumentation();
        assertThat(instrumentation.classes()).containsExactlyInAnyOrder(GoogleAdkInstrumentation.FUNCTIONS,
                GoogleAdkInstrumentation.FUNCTION_TOOL);
        assertThat(instrumentation.advice(GoogleAdkInstrumentation.FUNCTIONS)).hasSize(1);
        assertThat(instrumentation.advice("com/google/adk/Other")).isEmpty();
    }

    private java.util.List<String> advised(String internalName) {
        TypeDescription type = pool.describe(internalName.replace('/', '.')).resolve();
        return type.getDeclaredMethods().filter(GoogleAdkInstrumentation.toolCall(internalName)).stream()
                .map(MethodDescription::getName).toList();
    }
}

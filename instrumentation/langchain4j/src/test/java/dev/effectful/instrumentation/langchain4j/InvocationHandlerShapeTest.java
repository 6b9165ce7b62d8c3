package dev.effectful.instrumentation.langchain4j;

import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The instrumentation names LangChain4j's anonymous proxy handler by its compiled name; these pin that
 * the name still denotes the handler in the version the project tests (1.19), and that a class of
 * another shape under that name would be left alone rather than half-woven.
 */
class InvocationHandlerShapeTest {

    private final TypePool pool = TypePool.Default.of(ClassFileLocator.ForClassLoader.ofSystemLoader());

    @Test
    void theNamedClassIsTheAiServiceProxyHandlerInThisLangChain4j() {
        assertThat(InvocationHandlerShape.fits(pool.describe(LangChain4jInstrumentation.HANDLER.replace('/', '.')).resolve()))
                .isTrue();
    }

    @Test
    void aClassOfAnotherShapeIsLeftAsItIs() {
        // DefaultAiServices itself: no InvocationHandler; a JDK InvocationHandler-free class likewise
        assertThat(InvocationHandlerShape.fits(pool.describe("dev.langchain4j.service.DefaultAiServices").resolve())).isFalse();
        assertThat(InvocationHandlerShape.fits(TypeDescription.ForLoadedType.of(String.class))).isFalse();
    }

    @Test
    void onlyTheHandlerIsAskedFor() {
        LangChain4jInstrumentation i = new LangChain4jInstrumentation();
        assertThat(i.classes()).containsExactly(LangChain4jInstrumentation.HANDLER);
        assertThat(i.advice(LangChain4jInstrumentation.HANDLER)).hasSize(1);
        assertThat(i.advice("dev/langchain4j/service/DefaultAiServices")).isEmpty();
    }
}

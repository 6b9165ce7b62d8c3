package dev.effectful.instrumentation.koog;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The method the advice is matched to, and the field it reads, exist in the Koog this module compiles
 * against (read from its class files, as the agent reads them): a new Koog that renames either fails
 * here, not silently in an application whose tool calls would then open no task.
 */
class KoogShapeTest {

    private final TypePool pool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(),
            ClassFileLocator.ForClassLoader.of(KoogShapeTest.class.getClassLoader()), TypePool.Default.ReaderMode.FAST);

    @Test
    void executeToolIsAdvisedAndItsContextFieldIsTheRunsContext() {
        TypeDescription type = pool.describe(KoogInstrumentation.ENVIRONMENT.replace('/', '.')).resolve();
        assertThat(type.getDeclaredMethods().filter(KoogInstrumentation.executeTool()).stream().map(MethodDescription::getName))
                .containsExactly("executeTool");
        assertThat(type.getDeclaredFields().filter(named("context")).getOnly().getType().asErasure().getName())
                .isEqualTo(KoogInstrumentation.CONTEXT);
    }
}

package dev.effectful.instrumentation.embabel;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The method the advice is matched to, and the process accessors it calls by name, exist in the Embabel
 * this module is tested against (read from its class files, as the agent reads them, so no Java 21 is
 * needed): an Embabel that renames one fails here, not silently in an application whose loops would
 * then open no task.
 */
class EmbabelShapeTest {

    private final TypePool pool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(),
            ClassFileLocator.ForClassLoader.of(EmbabelShapeTest.class.getClassLoader()), TypePool.Default.ReaderMode.FAST);

    @Test
    void theLoopsExecuteIsAdvisedAndTheProcessIsReachableByName() {
        TypeDescription loop = pool.describe(EmbabelInstrumentation.LOOP.replace('/', '.')).resolve();
        assertThat(loop.getDeclaredMethods().filter(EmbabelInstrumentation.execute()).stream().map(MethodDescription::getName))
                .containsExactly("execute");
        TypeDescription parallel = pool.describe("com.embabel.agent.spi.loop.support.ParallelToolLoop").resolve();
        assertThat(parallel.getSuperClass().asErasure().getInternalName()).as("the parallel loop inherits execute")
                .isEqualTo(EmbabelInstrumentation.LOOP);
        assertThat(parallel.getDeclaredMethods().filter(named("execute"))).isEmpty();

        TypeDescription process = pool.describe(EmbabelInstrumentation.PROCESS).resolve();
        assertThat(process.getDeclaredMethods().filter(named("get").and(isStatic()).and(takesArguments(0)))).hasSize(1);
        assertThat(process.getDeclaredMethods().filter(named("getId").and(takesArguments(0))).getOnly()
                .getReturnType().asErasure().getName()).isEqualTo("java.lang.String");
        // the actor: ProcessOptions.identities.forUser.id
        String options = process.getDeclaredMethods().filter(named("getProcessOptions").and(takesArguments(0))).getOnly()
                .getReturnType().asErasure().getName();
        String identities = pool.describe(options).resolve().getDeclaredMethods().filter(named("getIdentities")).getOnly()
                .getReturnType().asErasure().getName();
        String user = pool.describe(identities).resolve().getDeclaredMethods().filter(named("getForUser")).getOnly()
                .getReturnType().asErasure().getName();
        assertThat(pool.describe(user).resolve().getDeclaredMethods().filter(named("getId").and(takesArguments(0)))).hasSize(1);
    }
}

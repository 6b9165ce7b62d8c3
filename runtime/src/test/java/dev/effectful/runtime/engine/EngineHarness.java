package dev.effectful.runtime.engine;

import dev.effectful.core.config.EffectfulConfig;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Calls tool methods through a real {@link CallEngine} (on a real journal unless the test builds
 * the engine), the way the advice does (enter, maybe the body, exit), without an agent: for tests
 * of the engine's decisions in one JVM.
 */
final class EngineHarness {

    final CallEngine engine;

    EngineHarness(Path journalDir) {
        this(EngineFactory.create(EffectfulConfig.load("journal=" + journalDir)));
    }

    /** Over an engine built by the test, such as {@link InMemoryEngine}'s. */
    EngineHarness(CallEngine engine) {
        this.engine = engine;
    }

    /** One harness for a whole test class: register the result on a static field ({@code @RegisterExtension}). */
    static PerClass perClass() {
        return new PerClass();
    }

    /**
     * A harness on a journal of its own, made before the class's first test in a new temporary directory, which
     * is removed after its last.
     */
    static final class PerClass implements BeforeAllCallback, AfterAllCallback {
        private Path journal;
        private EngineHarness harness;

        private PerClass() {
        }

        @Override
        public void beforeAll(ExtensionContext context) throws IOException {
            journal = Files.createTempDirectory("effectful-engine-");
            harness = new EngineHarness(journal);
        }

        @Override
        public void afterAll(ExtensionContext context) throws IOException {
            try (Stream<Path> files = Files.walk(journal)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }

        /** As {@link EngineHarness#call}. */
        Completion call(Object self, String method, Object... args) {
            return harness.call(self, method, args);
        }
    }

    /** What the caller would get: the value returned, or what is thrown. */
    Completion call(Object self, String method, Object... args) {
        Method m = Arrays.stream(self.getClass().getDeclaredMethods()).filter(x -> x.getName().equals(method))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no method " + method));
        String sig = m.getName() + MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
        Object handle = engine.enter(self.getClass(), sig, self, args);
        if (handle == null) {
            throw new AssertionError("the engine let " + method + " run unguarded");
        }
        if (engine.skipBody(handle)) {
            return engine.exit(handle, null, null);
        }
        Object returned = null;
        Throwable thrown = null;
        try {
            m.setAccessible(true);
            returned = m.invoke(self, engine.arguments(handle, args));
        } catch (InvocationTargetException e) {
            thrown = e.getCause();
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
        return engine.exit(handle, returned, thrown);
    }
}

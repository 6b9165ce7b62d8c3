package dev.effectful.instrumentation.okhttp;

import dev.effectful.instrumentation.api.LibraryInstrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

import java.util.List;
import java.util.Set;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * The intent key in the tool's key header ({@code @EffectfulTool(keyHeader = ...)}) on OkHttp requests
 * (4.x and 5.x). Every call, synchronous or enqueued, and every interceptor chain starts at
 * {@code OkHttpClient.newCall(Request)}, on the thread that makes the call: the tool's body.
 */
public final class OkHttpInstrumentation implements LibraryInstrumentation {

    static final String CLIENT = "okhttp3/OkHttpClient";
    private static final String ADVICE = "dev.effectful.instrumentation.okhttp.NewCallKeyHeader";

    @Override
    public String library() {
        return "okhttp";
    }

    @Override
    public Set<String> classes() {
        return Set.of(CLIENT);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        if (!CLIENT.equals(internalName)) {
            return List.of();
        }
        // described from its bytes, not loaded: its body names OkHttp types, which the agent's loader cannot see
        ClassFileLocator own = ClassFileLocator.ForClassLoader.of(OkHttpInstrumentation.class.getClassLoader());
        TypeDescription advice = TypePool.Default.of(own).describe(ADVICE).resolve();
        return List.of(Advice.to(advice, own).on(named("newCall").and(takesArguments(1))));
    }
}

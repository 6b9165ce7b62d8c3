package dev.effectful.agent.bridge;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Called from code the agent inlines into {@code java.lang.invoke.LambdaMetafactory} (before each
 * call site is returned), {@code MethodHandles.Lookup.defineHiddenClass} (before the bytes are
 * defined) and {@code ClassLoader.defineClass} (before a class file is defined). It lives on the bootstrap class path, beside the JDK classes that call it, and holds
 * nothing but the {@link LoadingGuard} the agent installs. A lambda of a JDK interface (almost all of
 * them: {@code Runnable}, {@code Function}...) costs one loader comparison here.
 */
public final class LoadingHooks {

    private static volatile LoadingGuard guard;

    private LoadingHooks() {
    }

    /** Installs the guard; called once by the agent. */
    public static void install(LoadingGuard g) {
        guard = g;
    }

    public static CallSite lambda(CallSite site, MethodHandles.Lookup caller, String methodName, MethodType factoryType) {
        LoadingGuard g = guard;
        if (g == null || site == null || factoryType.returnType().getClassLoader() == null) {
            return site;
        }
        return g.lambda(site, caller, methodName, factoryType);
    }

    public static byte[] hiddenClass(MethodHandles.Lookup lookup, byte[] bytes) {
        LoadingGuard g = guard;
        return g == null || bytes == null ? bytes : g.hiddenClass(lookup, bytes);
    }

    public static void beforeDefine(ClassLoader loader, byte[] bytes, int off, int len) {
        LoadingGuard g = guard;
        if (g != null && bytes != null) {
            g.beforeDefine(loader, bytes, off, len);
        }
    }
}

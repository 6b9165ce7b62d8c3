package dev.effectful.agent.bridge;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * What the JDK's lambda and hidden-class factories call, implemented inside the agent's isolated
 * class loader ({@link LoadingHooks} is the door). Neither kind of class ever reaches a
 * {@code ClassFileTransformer}, so these are the only places the agent can guard them.
 */
public interface LoadingGuard {

    /**
     * The call site a lambda or method reference links to: {@code site} itself, or one whose
     * instances pass each call of an {@code @EffectfulTool} method through the guard.
     */
    CallSite lambda(CallSite site, MethodHandles.Lookup caller, String methodName, MethodType factoryType);

    /** The class file a hidden class is defined from: {@code bytes}, or its tools guarded. */
    byte[] hiddenClass(MethodHandles.Lookup lookup, byte[] bytes);

    /**
     * {@code loader} is about to define a class from {@code bytes[off, off + len)}: its supertypes may be
     * loaded first, as the JVM would a moment later. Must never throw.
     */
    void beforeDefine(ClassLoader loader, byte[] bytes, int off, int len);
}

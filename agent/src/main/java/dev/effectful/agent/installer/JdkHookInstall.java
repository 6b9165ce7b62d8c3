package dev.effectful.agent.installer;

import dev.effectful.core.log.AgentLog;

import java.lang.instrument.Instrumentation;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Retransforms the JDK's {@code LambdaMetafactory} and {@code MethodHandles.Lookup} with
 * {@link JdkHooks}, off premain's thread, and then {@code ClassLoader} (whose hook only saves work): rewriting {@code Lookup} (40 KB) with a cold ASM took some
 * 30-60 ms of the start. The one thing that must not happen meanwhile is a lambda of an annotated
 * interface linked before its hook exists, and such an interface always passes the transformer
 * first: the transformer waits here ({@link #awaitInstalled}) before it lets a class holding the
 * annotation load. When the JVM loaded tool classes before the agent (another agent, an AOT cache),
 * their interfaces never pass the transformer, so the install runs at once on premain's thread.
 * Likewise a class that may define hidden classes ({@code defineHiddenClass} in its constant pool) waits
 * for the install before it loads, so none is defined before the hook is in. A hidden class with a tool
 * defined before the install ended anyway (by another agent, or through a name computed at run time) cannot
 * be rewritten: it is named in one loud line ({@link LoadedClasses#unguardableHiddenClasses}).
 */
final class JdkHookInstall {

    /** Far above the install's own time; a bound, so a class load never hangs on it. */
    private static final long WAIT_SECONDS = 10;

    private final Instrumentation inst;
    private final ClassLoader agentLoader;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile Thread installer;

    JdkHookInstall(Instrumentation inst, ClassLoader agentLoader) {
        this.inst = inst;
        this.agentLoader = agentLoader;
    }

    void startInBackground() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(this::install, "effectful-jdk-hooks");
        t.setDaemon(true);
        installer = t;
        t.start();
    }

    void installNow() {
        if (started.compareAndSet(false, true)) {
            install();
        } else {
            awaitInstalled();
        }
    }

    /** Whether the install has ended (the hooks are in, or it failed and said so). */
    boolean isInstalled() {
        return done.getCount() == 0;
    }

    /** Returns once the hooks are in (at most {@link #WAIT_SECONDS}); at once on the install's own thread. */
    void awaitInstalled() {
        if (done.getCount() == 0 || !started.get() || Thread.currentThread() == installer) {
            return;
        }
        try {
            if (!done.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                AgentLog.errorOnce("jdk-hooks-wait", "effectful: the JDK's lambda and hidden-class factories were not"
                        + " rewritten within " + WAIT_SECONDS + " s; lambdas and hidden classes of @EffectfulTool"
                        + " interfaces made until then run UNGUARDED", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void install() {
        try {
            // loads it through the transformer if the JVM has not yet: then this retransformation re-applies the same hook
            Class<?> metafactory = Class.forName(JdkHooks.METAFACTORY.replace('/', '.'), false, null);
            inst.retransformClasses(metafactory, java.lang.invoke.MethodHandles.Lookup.class);
        } catch (Throwable t) {
            AgentLog.errorOnce("jdk-hooks", "effectful could not rewrite the JDK's lambda and hidden-class factories;"
                    + " lambdas, method references and hidden classes that implement or declare an @EffectfulTool run"
                    + " UNGUARDED: implement such tools with ordinary classes", t);
        } finally {
            hookDefineClass();
            done.countDown();
        }
        LoadedClasses.unguardableHiddenClasses(inst, agentLoader);
    }

    /**
     * Before the release, so a tool class that waits for the hooks finds its supertypes loaded ahead of it too;
     * a failure only costs reading their class files.
     */
    private void hookDefineClass() {
        try {
            inst.retransformClasses(ClassLoader.class);
        } catch (Throwable t) {
            AgentLog.debug("effectful could not hook ClassLoader.defineClass (" + t + "); the supertypes of classes"
                    + " it loads are read as class files instead");
        }
    }
}

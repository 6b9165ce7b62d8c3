package dev.effectful.agent.installer;

import dev.effectful.Task;
import dev.effectful.agent.integration.Instrumentations;
import dev.effectful.runtime.engine.StartWaits;
import dev.effectful.core.log.AgentLog;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;

/**
 * The agent's one class-file transformer. Every class the JVM loads passes through here, so the
 * common case is a loader comparison and a byte search, with nothing of Byte Buddy loaded: its
 * pipeline is only needed once a class inherits a tool (an implementation of an annotated interface
 * method, an override of an annotated superclass method), declares one but cannot take the first-load
 * weaver, or is a class of a library an instrumentation ({@code instrumentation/<library>}) rewrites.
 * Tool classes at first load and the JDK executors the task rides on are rewritten with Byte Buddy's
 * bundled ASM core only ({@link FirstLoadWeaver}, {@link ExecutorWeaver}).
 * Proxy and generated classes are woven like any other: they may be the implementation.
 * Nothing escapes: a class that cannot be rewritten loads as it is, and the log says what that means.
 */
final class WeavingTransformer implements ClassFileTransformer {

    private final ClassLoader agentLoader;
    private final EngineStarter starter;
    private final Instrumentation inst;
    private final ToolSupertypes supertypes;
    private final Instrumentations libraries;
    private final FirstLoadWoven firstLoadWoven = new FirstLoadWoven();
    private final JdkHookInstall hooks;
    private final StartupQuiet quiet;

    WeavingTransformer(ClassLoader agentLoader, EngineStarter starter, Instrumentation inst, ToolSupertypes supertypes,
                       Instrumentations libraries) {
        this(agentLoader, starter, inst, supertypes, libraries, null, new StartupQuiet());
    }

    WeavingTransformer(ClassLoader agentLoader, EngineStarter starter, Instrumentation inst, ToolSupertypes supertypes,
                       Instrumentations libraries, JdkHookInstall hooks, StartupQuiet quiet) {
        this.hooks = hooks;
        this.quiet = quiet;
        this.agentLoader = agentLoader;
        this.starter = starter;
        this.inst = inst;
        this.supertypes = supertypes;
        this.libraries = libraries;
    }

    /** What the transformer learnt of each class's tools as it passed, for the lambda hook. */
    ToolSupertypes supertypes() {
        return supertypes;
    }

    /**
     * Whether this thread is inside {@link #transform}: a class loaded now reaches no transformer (the JVM's
     * agent runtime lets one transformation run per thread), so {@link #beforeDefine} must load nothing then.
     */
    private static final ThreadLocal<Boolean> TRANSFORMING = new ThreadLocal<>();

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        TRANSFORMING.set(Boolean.TRUE);
        try {
            return transformOnce(module, loader, name, redefined, domain, bytes);
        } finally {
            TRANSFORMING.remove();
        }
    }

    /**
     * {@code loader} is about to define the class in {@code bytes[off, off + len)} (the hook in
     * {@code ClassLoader.defineClass}): its supertypes are loaded first, so that deciding whether it inherits a
     * tool reads no class file ({@link ToolSupertypes#preload}).
     */
    void beforeDefine(ClassLoader loader, byte[] bytes, int off, int len) {
        if (loader == null || loader == agentLoader || TRANSFORMING.get() != null) {
            return;
        }
        supertypes.preload(loader, bytes, off, len);
    }

    private byte[] transformOnce(Module module, ClassLoader loader, String name, Class<?> redefined,
                                 ProtectionDomain domain, byte[] bytes) {
        quiet.classSeen();
        if (name == null || loader == agentLoader) {
            return null;
        }
        if (libraries.rewrites(name)) {
            return instrumentLibrary(module, loader, name, bytes);
        }
        if (loader == null) {
            if (JdkHooks.rewrites(name)) {
                return hookJdk(name, bytes);
            }
            return ContextPropagation.isExecutor(name) ? carryTask(name, bytes) : null;
        }
        if (hooks != null && !hooks.isInstalled() && AnnotationPrefilter.mayDefineHiddenClasses(bytes)) {
            // a class that defines hidden classes runs only once the hook that rewrites them is in: a hidden class
            // defined before it (in the first moments of main) would pass no transformer and run its tools unguarded
            hooks.awaitInstalled();
        }
        if (AnnotationPrefilter.mayHoldTool(bytes)) {
            // the application has tools: open the journal ahead of its first call, once its start has quieted
            startEarly(loader);
            if (hooks != null) {
                // an annotated interface is loaded before any lambda of it is linked: the lambda hook must be in first
                hooks.awaitInstalled();
            }
            // remembered before its implementations load, even when it has nothing to rewrite (an interface)
            supertypes.sawToolType(loader, name, bytes);
            return guardTools(module, loader, name, redefined, bytes, true);
        }
        return inheritsTool(loader, home(domain), name, bytes) ? guardTools(module, loader, name, redefined, bytes, false)
                : null;
    }

    /**
     * Opens the journal ahead of the first call, once the application's start quiets; in a test JVM with the
     * JUnit kit, at the first call the agent guards instead ({@link KitOnClassPath}): the kit's own calls never
     * reach the agent's journal.
     */
    private void startEarly(ClassLoader loader) {
        if (!KitOnClassPath.sees(loader)) {
            starter.startAhead();
        }
    }

    private boolean inheritsTool(ClassLoader loader, String name, byte[] bytes) {
        return inheritsTool(loader, null, name, bytes);
    }

    /** Where the class being loaded came from: its supertypes are most often in the same archive. */
    private static java.net.URL home(ProtectionDomain domain) {
        try {
            return domain == null || domain.getCodeSource() == null ? null : domain.getCodeSource().getLocation();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private boolean inheritsTool(ClassLoader loader, java.net.URL home, String name, byte[] bytes) {
        try {
            return supertypes.inheritsTool(loader, home, name, bytes);
        } catch (Throwable t) {
            AgentLog.errorOnce("supertypes:" + name, "effectful could not read the supertypes of " + name.replace('/', '.')
                    + "; a tool it inherits from an interface or superclass runs unguarded", t);
            return false;
        }
    }

    private byte[] guardTools(Module module, ClassLoader loader, String name, Class<?> redefined, byte[] bytes,
                              boolean declaresTools) {
        long t0 = System.nanoTime();
        Task task = null;
        long remaining = 0;
        try {
            task = Task.current().orElse(null);
            remaining = task == null ? 0 : StartWaits.remainingNanos(task, t0);
        } catch (Throwable t) {
            // only the budget credit is lost; the class must still be rewritten
            task = null;
        }
        try {
            byte[] rewritten = weave(loader, name, redefined, bytes, declaresTools);
            if (rewritten != null) {
                readBridge(module);
                AgentLog.debug("effectful rewrote " + name.replace('/', '.') + " in " + (System.nanoTime() - t0) / 1000 + " µs");
                // a class that inherits its tools (the prefilter did not see it) starts the journal here
                startEarly(loader);
            }
            return rewritten;
        } catch (Throwable t) {
            AgentLog.errorOnce("transform:" + name, "effectful could not rewrite " + name.replace('/', '.')
                    + "; its tools run unguarded", t);
            return null;
        } finally {
            // the first tool class waits for Byte Buddy: the agent's start-up, not the work of the task
            // (if any) that loaded it, so that task's budget gets the time back (see StartWaits)
            creditStartUp(task, t0, remaining);
        }
    }

    /**
     * A class that declares its tools and inherits none is guarded by {@link FirstLoadWeaver} (ASM
     * core only) when it is first defined, and again by it on every later retransformation, since the
     * methods it added must stay. Everything else (inherited tools, interfaces, classes loaded
     * before the agent) takes the Byte Buddy path, which never changes a class's shape.
     */
    private byte[] weave(ClassLoader loader, String name, Class<?> redefined, byte[] bytes, boolean declaresTools) {
        if (declaresTools && (redefined == null ? !inheritsTool(loader, name, bytes) : firstLoadWoven.wove(loader, name))) {
            byte[] rewritten = redefined == null ? firstLoadOrNull(name, bytes) : FirstLoadWeaver.weave(bytes);
            if (rewritten != null) {
                if (redefined == null) {
                    firstLoadWoven.add(loader, name);
                }
                return rewritten;
            }
        }
        return Weavers.tools().weave(loader, name, bytes);
    }

    /** At first load a failure here costs only the fast path: the Byte Buddy path guards the class instead. */
    private static byte[] firstLoadOrNull(String name, byte[] bytes) {
        try {
            return FirstLoadWeaver.weave(bytes);
        } catch (Throwable t) {
            AgentLog.debug("effectful could not guard " + name.replace('/', '.') + " with its first-load weaver ("
                    + t + "); using Byte Buddy");
            return null;
        }
    }

    private static void creditStartUp(Task task, long t0, long remaining) {
        if (task == null) {
            return;
        }
        try {
            StartWaits.credit(task, t0, remaining, EngineDispatcher.START_CREDIT_NANOS);
        } catch (Throwable t) {
            AgentLog.debug("effectful could not give the rewrite's time back to the task: " + t);
        }
    }

    /**
     * A named module reads only what it declares; the advice calls the bridge in the boot loader's
     * unnamed module. JDK dynamic proxies live in such modules ({@code jdk.proxyN}).
     */
    private void readBridge(Module module) {
        Module bridge = dev.effectful.agent.bridge.Bridge.class.getModule();
        if (module != null && module.isNamed() && !module.canRead(bridge)) {
            inst.redefineModule(module, Set.of(bridge), Map.of(), Map.of(), Set.of(), Map.of());
        }
    }

    private byte[] instrumentLibrary(Module module, ClassLoader loader, String name, byte[] bytes) {
        try {
            var calls = libraries.entryCalls(name);
            // described calls need only ASM's core; Byte Buddy's pipeline only for a library's advice
            byte[] rewritten = !calls.isEmpty() ? EntryCallWeaver.weave(bytes, calls)
                    : Weavers.libraries().weave(libraries, loader, name, bytes);
            if (rewritten != null) {
                readBridge(module);
                AgentLog.debug("effectful instrumented " + name.replace('/', '.'));
            }
            return rewritten;
        } catch (Throwable t) {
            String library = libraries.of(name).map(i -> i.library()).orElse("a library");
            AgentLog.errorOnce("instrument:" + name, "effectful could not instrument " + name.replace('/', '.') + " ("
                    + library + "); tasks and intent keys do not travel through it (use Task.open around the call)", t);
            return null;
        }
    }

    private static byte[] hookJdk(String name, byte[] bytes) {
        try {
            return JdkHooks.weave(name, bytes);
        } catch (Throwable t) {
            if (JdkHooks.CLASS_LOADER.equals(name)) {
                AgentLog.debug("effectful could not hook ClassLoader.defineClass (" + t + "); supertypes are read as"
                        + " class files instead");
                return null;
            }
            AgentLog.errorOnce("jdk-hook:" + name, "effectful could not rewrite " + name.replace('/', '.')
                    + "; lambdas, method references and hidden classes that implement or declare an @EffectfulTool"
                    + " run UNGUARDED: implement such tools with ordinary classes", t);
            return null;
        }
    }

    private static byte[] carryTask(String name, byte[] bytes) {
        try {
            return Weavers.executors().weave(name, bytes);
        } catch (Throwable t) {
            AgentLog.errorOnce("propagation:" + name, "effectful could not rewrite " + name.replace('/', '.')
                    + "; the task context does not follow work through it (use Task.wrap)", t);
            return null;
        }
    }
}

package dev.effectful.agent.bootstrap;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The {@code -javaagent} entry point. It does as little as it can on the application's start-up
 * path: makes the API and bridge visible to every class loader, opens what Chronicle needs, and
 * hands over to the installer inside the isolated class loader. Nothing may escape from here: an
 * exception out of premain would abort the JVM, and the application must start regardless. An
 * invalid configuration is not such a failure: the installer stays and refuses effectful calls.
 */
public final class EffectfulAgent {

    private static volatile boolean started;

    private EffectfulAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        start(args, inst, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, true);
    }

    private static synchronized void start(String args, Instrumentation inst, boolean attached) {
        if (started) {
            return;
        }
        started = true;
        try {
            IsolatedRuntime.quietChronicle();
            File jar = IsolatedRuntime.agentJar();
            ClassLoader apiHome = ApiHome.find(inst, attached);
            if (apiHome != null) {
                ApiHome.defineAllIn(apiHome, jar);
            }
            // with an application-owned API only the bridge goes to the bootstrap loader
            BootstrapInjector.inject(inst, jar, apiHome == null);
            ClassLoader loader = IsolatedRuntime.loader(apiHome);
            openJavaBase(inst, loader);
            UnsafeWarning.markGiven();
            Class<?> installer = Class.forName("dev.effectful.agent.installer.AgentInstaller", true, loader);
            installer.getMethod("install", Instrumentation.class, String.class, boolean.class)
                    .invoke(null, inst, args, attached);
        } catch (Throwable t) {
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException && t.getCause() != null
                    ? t.getCause() : t;
            // only reached when the agent cannot be put into this JVM at all (its jar unreadable, the
            // JVM refusing instrumentation); a configuration error never comes here, it fails closed
            System.err.println("effectful ERROR: the agent could not be installed in this JVM (" + cause
                    + "); its effectful tools are NOT guarded");
        }
    }

    /**
     * Chronicle maps files through JDK internals; granting them to the agent's loader here means a
     * user adds no --add-exports/--add-opens flags. The bootstrap-appended bridge and API must also
     * be readable from java.base, whose executors the agent rewrites to carry the task context.
     */
    private static void openJavaBase(Instrumentation inst, ClassLoader agentLoader) throws ClassNotFoundException {
        Module javaBase = Object.class.getModule();
        Module agent = agentLoader.getUnnamedModule();
        Module bootUnnamed = Class.forName("dev.effectful.agent.bridge.Bridge", false, null).getModule();
        Map<String, Set<Module>> exports = new HashMap<>();
        for (String pkg : new String[] {"sun.nio.ch", "jdk.internal.ref", "jdk.internal.misc"}) {
            exports.put(pkg, Set.of(agent));
        }
        Map<String, Set<Module>> opens = new HashMap<>();
        for (String pkg : new String[] {"java.lang", "java.lang.reflect", "java.nio", "sun.nio.ch", "java.io", "java.util"}) {
            opens.put(pkg, Set.of(agent));
        }
        inst.redefineModule(javaBase, Set.of(bootUnnamed), exports, opens, Set.of(), Map.of());
    }
}

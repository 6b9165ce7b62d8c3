package dev.effectful.agent.installer;

import dev.effectful.runtime.log.AgentLog;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * The agent's one class-file transformer. Every class the JVM loads passes through here, so the
 * common case is a loader comparison and a byte search, with nothing of Byte Buddy loaded: that is
 * only needed once a class declares a tool, or is one of the JDK executors the task rides on.
 * Nothing escapes: a class that cannot be rewritten loads as it is, and the log says what that means.
 */
final class WeavingTransformer implements ClassFileTransformer {

    private final ClassLoader agentLoader;
    private final EngineStarter starter;

    WeavingTransformer(ClassLoader agentLoader, EngineStarter starter) {
        this.agentLoader = agentLoader;
        this.starter = starter;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (name == null || loader == agentLoader) {
            return null;
        }
        if (loader == null) {
            return ContextPropagation.isExecutor(name) ? carryTask(name, bytes) : null;
        }
        return AnnotationPrefilter.mayHoldTool(bytes) ? guardTools(loader, name, bytes) : null;
    }

    private byte[] guardTools(ClassLoader loader, String name, byte[] bytes) {
        try {
            long t0 = System.nanoTime();
            byte[] rewritten = Weavers.tools().weave(loader, name, bytes);
            if (rewritten != null) {
                AgentLog.debug("effectful rewrote " + name.replace('/', '.') + " in " + (System.nanoTime() - t0) / 1000 + " µs");
                // the application has tools: open the journal and rebuild the index before the first call
                starter.startInBackground();
            }
            return rewritten;
        } catch (Throwable t) {
            AgentLog.errorOnce("transform:" + name, "effectful could not rewrite " + name.replace('/', '.')
                    + "; its tools run unguarded", t);
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

package dev.effectful.agent.installer;

import dev.effectful.core.log.AgentLog;

/**
 * The weavers (tools, executors, libraries), each built on first use: building the tool or library weaver loads most of
 * Byte Buddy, which is the largest part of the agent's start-up cost (the executor weaver and the first-load tool weaver
 * use its bundled ASM core only). {@link #warmUpInBackground()} builds them on a
 * daemon thread while the application starts, so the first tool class rarely waits for it.
 */
final class Weavers {

    private Weavers() {
    }

    private static final ToolSupertypes SUPERTYPES = new ToolSupertypes();

    /** What is known of tool-declaring supertypes; cheap, nothing of Byte Buddy. */
    static ToolSupertypes supertypes() {
        return SUPERTYPES;
    }

    static ToolWeaving tools() {
        return Tools.INSTANCE;
    }

    static ContextPropagation executors() {
        return Executors.INSTANCE;
    }

    static LibraryWeaving libraries() {
        return Libraries.INSTANCE;
    }

    static void warmUpInBackground() {
        Thread t = new Thread(() -> {
            try {
                rewriteSample();
                rewriteExecutorSample(executors());
            } catch (Throwable e) {
                // each class that needs a weaver reports the failure with what it means for that class
                AgentLog.debug("effectful weaver warm-up failed: " + e);
            }
        }, "effectful-warmup");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Loads the executor weaver's few classes (ASM core, no Byte Buddy) before the application's main
     * thread loads its first executor: one JDK executor's class file is rewritten here and the result
     * thrown away.
     */
    private static void rewriteExecutorSample(ContextPropagation executors) throws java.io.IOException {
        String name = "java/util/concurrent/FutureTask";
        try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream(name + ".class")) {
            if (in != null && executors.weave(name, in.readAllBytes()) == null) {
                AgentLog.debug("effectful executor warm-up rewrote nothing");
            }
        }
    }

    /** The first-load weaver is what application tool classes meet first: a few ASM classes, no Byte Buddy. */
    private static void rewriteSample() throws java.io.IOException {
        String name = WarmUpSample.class.getName().replace('.', '/');
        ClassLoader own = Weavers.class.getClassLoader();
        try (java.io.InputStream in = own.getResourceAsStream(name + ".class")) {
            if (in != null && FirstLoadWeaver.weave(in.readAllBytes()) == null) {
                AgentLog.debug("effectful weaver warm-up found no tool in its sample");
            }
        }
    }

    private static final class Tools {
        static final ToolWeaving INSTANCE = new ToolWeaving(SUPERTYPES);
    }

    private static final class Libraries {
        static final LibraryWeaving INSTANCE = new LibraryWeaving();
    }

    private static final class Executors {
        static final ContextPropagation INSTANCE = new ContextPropagation();
    }
}

package dev.effectful.agent.installer;

import dev.effectful.agent.integration.Instrumentations;

import java.lang.annotation.Annotation;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Classes loaded before the transformer was registered that it would have rewritten: JDK executors
 * the JVM loaded early; classes of
 * the instrumented libraries already loaded (the JDK's own HTTP client may be, by the application's
 * start-up code or an attach); and every loaded application class that declares a tool or implements
 * one declared by a supertype (proxies included). That last set is empty at an ordinary premain, but
 * not when the agent is attached, when another {@code -javaagent} before this one loaded a tool class,
 * or when a JDK 24+ AOT cache loaded the application's classes before any agent ran. Tools are found
 * by reflection, by annotation name, since such a class may see the application's own copy of the API.
 * A tool class the JVM will not let be rewritten (a hidden class) is named in one loud line.
 */
final class LoadedClasses {

    /** The unguardable classes already named: premain and the end of the JDK hooks' install both look. */
    private static final java.util.Set<String> NAMED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private LoadedClasses() {
    }

    static List<Class<?>> toRewrite(Instrumentation inst, ClassLoader agentLoader, Instrumentations libraries) {
        List<Class<?>> out = new ArrayList<>();
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            ClassLoader loader = c.getClassLoader();
            if (loader == agentLoader || c.isArray() || c.isPrimitive()) {
                continue;
            }
            String internal = c.getName().replace('.', '/');
            boolean wanted;
            if (libraries.rewrites(internal)) {
                wanted = true;
            } else if (loader == null) {
                // the JDK's lambda and hidden-class factories are JdkHookInstall's
                wanted = ContextPropagation.isExecutor(internal);
            } else if (loader == platform || isAgentBootstrap(c)) {
                continue;
            } else {
                wanted = declaresTool(c) || inheritsTool(c);
                if (wanted && !inst.isModifiableClass(c)) {
                    unguardable(c);
                    continue;
                }
            }
            if (wanted && inst.isModifiableClass(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Hidden classes (lambdas included) that declare or implement a tool and were defined before the
     * JDK's factories were hooked: nothing can rewrite them any more, so each is named in one loud line.
     */
    static void unguardableHiddenClasses(Instrumentation inst, ClassLoader agentLoader) {
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        // a JVM exiting while the hooks were installed has answered with no list (seen in the combined campaign)
        Class<?>[] loaded = inst.getAllLoadedClasses();
        if (loaded == null) {
            return;
        }
        for (Class<?> c : loaded) {
            if (c == null) {
                continue;
            }
            ClassLoader loader = c.getClassLoader();
            if (c.isHidden() && loader != null && loader != agentLoader && loader != platform && !isAgentBootstrap(c)
                    && (declaresTool(c) || inheritsTool(c))) {
                unguardable(c);
            }
        }
    }

    /** The agent's own premain classes, in the system loader beside the application's. */
    private static boolean isAgentBootstrap(Class<?> c) {
        return c.getName().startsWith("dev.effectful.agent.bootstrap.");
    }

    /**
     * Straight to stderr: a logging framework started in premain would be started before the
     * application configures it. No refusal can be put into a class the JVM will not rewrite, so the
     * line is the one thing that stops its calls from running unguarded in silence.
     */
    private static void unguardable(Class<?> c) {
        if (!NAMED.add(c.getName() + "@" + System.identityHashCode(c.getClassLoader()))) {
            return;
        }
        System.err.println("effectful ERROR: " + c.getName() + " declares or implements an @EffectfulTool but was loaded"
                + " before the agent could rewrite it, as a class no transformer sees (a hidden class); its tools run UNGUARDED: define it"
                + " after the agent starts (put -javaagent:effectful-agent.jar first), or as an ordinary class");
    }

    /** A concrete method named like an annotated method of a supertype; the weaver decides precisely. */
    private static boolean inheritsTool(Class<?> c) {
        try {
            java.util.Set<String> concrete = new java.util.HashSet<>();
            for (Method m : c.getDeclaredMethods()) {
                int mod = m.getModifiers();
                if (!m.isBridge() && !java.lang.reflect.Modifier.isAbstract(mod) && !java.lang.reflect.Modifier.isStatic(mod)) {
                    concrete.add(m.getName() + "/" + m.getParameterCount());
                }
            }
            if (concrete.isEmpty()) {
                return false;
            }
            java.util.Deque<Class<?>> todo = new java.util.ArrayDeque<>(supertypes(c));
            java.util.Set<Class<?>> seen = new java.util.HashSet<>();
            while (!todo.isEmpty()) {
                Class<?> s = todo.poll();
                if (!seen.add(s) || ClassHeader.isJdk(s.getName().replace('.', '/'))) {
                    continue;
                }
                for (Method m : s.getDeclaredMethods()) {
                    if (concrete.contains(m.getName() + "/" + m.getParameterCount()) && annotated(m)) {
                        return true;
                    }
                }
                todo.addAll(supertypes(s));
            }
        } catch (Throwable unreadable) {
            // as below: a class whose methods cannot be reflected cannot be called either
        }
        return false;
    }

    private static List<Class<?>> supertypes(Class<?> c) {
        List<Class<?>> out = new ArrayList<>(List.of(c.getInterfaces()));
        if (c.getSuperclass() != null) {
            out.add(0, c.getSuperclass());
        }
        return out;
    }

    private static boolean annotated(Method m) {
        for (Annotation a : m.getDeclaredAnnotations()) {
            if (a.annotationType().getName().equals(ToolWeaving.TOOL_ANNOTATION)) {
                return true;
            }
        }
        return false;
    }

    private static boolean declaresTool(Class<?> c) {
        try {
            for (Method m : c.getDeclaredMethods()) {
                for (Annotation a : m.getDeclaredAnnotations()) {
                    if (a.annotationType().getName().equals(ToolWeaving.TOOL_ANNOTATION)) {
                        return true;
                    }
                }
            }
        } catch (Throwable unreadable) {
            // a class whose methods cannot be reflected (missing dependency) cannot be called either
        }
        return false;
    }
}

package dev.effectful.agent.installer;

import dev.effectful.agent.integration.Instrumentations;

import java.lang.annotation.Annotation;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Classes loaded before the transformer was registered that it would have rewritten: at premain
 * only JDK executors the JVM happened to load early; when attached, also every loaded class that
 * declares a tool or implements one declared by a supertype (proxies included). Tools are found by
 * reflection, by annotation name, and classes of the instrumented libraries already loaded (the JDK's
 * own HTTP client may be, by the application's start-up code or an attach). Tools are found by reflection, by annotation name, since an attached agent may meet the application's own copy of the API.
 */
final class LoadedClasses {

    private LoadedClasses() {
    }

    static List<Class<?>> toRewrite(Instrumentation inst, ClassLoader agentLoader, boolean attached,
                                    Instrumentations libraries) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            ClassLoader loader = c.getClassLoader();
            if (loader == agentLoader || c.isArray() || c.isPrimitive() || !inst.isModifiableClass(c)) {
                continue;
            }
            String internal = c.getName().replace('.', '/');
            boolean wanted = libraries.rewrites(internal) || (loader == null ? ContextPropagation.isExecutor(internal)
                    : attached && (declaresTool(c) || inheritsTool(c)));
            if (wanted) {
                out.add(c);
            }
        }
        return out;
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

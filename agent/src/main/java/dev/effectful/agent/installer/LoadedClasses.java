package dev.effectful.agent.installer;

import java.lang.annotation.Annotation;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Classes loaded before the transformer was registered that it would have rewritten: at premain
 * only JDK executors the JVM happened to load early; when attached, also every loaded class that
 * declares a tool. Tools are found by reflection, by annotation name, since an attached agent may
 * meet the application's own copy of the API.
 */
final class LoadedClasses {

    private LoadedClasses() {
    }

    static List<Class<?>> toRewrite(Instrumentation inst, ClassLoader agentLoader, boolean attached) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            ClassLoader loader = c.getClassLoader();
            if (loader == agentLoader || c.isArray() || c.isPrimitive() || !inst.isModifiableClass(c)) {
                continue;
            }
            boolean wanted = loader == null ? ContextPropagation.isExecutor(c.getName().replace('.', '/'))
                    : attached && declaresTool(c);
            if (wanted) {
                out.add(c);
            }
        }
        return out;
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

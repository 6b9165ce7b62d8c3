package dev.effectful.agent.bridge;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * Reads a framework's parameter annotations by their type's NAME, for advice inlined into the
 * framework (a LangChain4j AI-service proxy's {@code @MemoryId} argument). By name, so that the
 * bootstrap path never links a framework type, and an application whose copy of the framework lacks
 * the annotation simply finds nothing.
 */
public final class AnnotatedArguments {

    private AnnotatedArguments() {
    }

    /**
     * The argument whose parameter carries an annotation of type {@code annotationType}; null when no
     * parameter does (or the argument itself is null).
     *
     * @param annotationType the annotation's binary name, such as {@code dev.langchain4j.service.MemoryId}
     */
    public static Object find(Method method, Object[] args, String annotationType) {
        if (method == null || args == null) {
            return null;
        }
        Annotation[][] all = method.getParameterAnnotations();
        for (int i = 0; i < all.length && i < args.length; i++) {
            for (Annotation a : all[i]) {
                if (a.annotationType().getName().equals(annotationType)) {
                    return args[i];
                }
            }
        }
        return null;
    }
}

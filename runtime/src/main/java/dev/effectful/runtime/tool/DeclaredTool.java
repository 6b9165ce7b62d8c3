package dev.effectful.runtime.tool;

import dev.effectful.EffectfulTool;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;

/**
 * Where the {@code @EffectfulTool} of a rewritten method comes from: the method itself, else the
 * nearest supertype method it implements or overrides (superclass before interfaces at the same
 * depth, then their supertypes). Java does not inherit method annotations; the agent does, so an
 * implementation of an annotated interface method is the same tool.
 *
 * @param declaring the annotated method: its parameters carry {@code @IntentKey}, {@code @Slot},
 *                  {@code @Redact} and {@code @Items}
 * @param spec      its annotation
 */
public record DeclaredTool(Method declaring, EffectfulTool spec) {

    /** The annotation {@code m} is guarded with, if any; its own wins over any supertype's. */
    public static Optional<DeclaredTool> of(Method m) {
        EffectfulTool own = m.getAnnotation(EffectfulTool.class);
        if (own != null) {
            return Optional.of(new DeclaredTool(m, own));
        }
        if (Modifier.isStatic(m.getModifiers()) || Modifier.isPrivate(m.getModifiers())) {
            return Optional.empty();
        }
        Queue<Class<?>> queue = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        addSupertypes(m.getDeclaringClass(), queue);
        while (!queue.isEmpty()) {
            Class<?> type = queue.poll();
            if (!seen.add(type)) {
                continue;
            }
            Optional<DeclaredTool> found = annotatedIn(type, m);
            if (found.isPresent()) {
                return found;
            }
            addSupertypes(type, queue);
        }
        return Optional.empty();
    }

    /** True when the annotation comes from a supertype rather than the method itself. */
    public boolean inherited(Method m) {
        return !declaring.equals(m);
    }

    private static void addSupertypes(Class<?> type, Queue<Class<?>> queue) {
        if (type.getSuperclass() != null && type.getSuperclass() != Object.class) {
            queue.add(type.getSuperclass());
        }
        for (Class<?> i : type.getInterfaces()) {
            queue.add(i);
        }
    }

    private static Optional<DeclaredTool> annotatedIn(Class<?> type, Method m) {
        Method loose = null;
        for (Method c : type.getDeclaredMethods()) {
            EffectfulTool spec = c.getAnnotation(EffectfulTool.class);
            if (spec == null || c.isBridge() || !c.getName().equals(m.getName())
                    || c.getParameterCount() != m.getParameterCount()
                    || Modifier.isStatic(c.getModifiers()) || Modifier.isPrivate(c.getModifiers())) {
                continue;
            }
            switch (match(c, m)) {
                case EXACT -> {
                    return Optional.of(new DeclaredTool(c, spec));
                }
                case THROUGH_TYPE_VARIABLE -> loose = loose == null ? c : loose;
                case NONE -> {
                }
            }
        }
        return loose == null ? Optional.empty() : Optional.of(new DeclaredTool(loose, loose.getAnnotation(EffectfulTool.class)));
    }

    private enum Match { EXACT, THROUGH_TYPE_VARIABLE, NONE }

    /**
     * Exact erasures, or (for {@code Port<T>.pay(T)} implemented as {@code pay(String)}) a type
     * variable in the supertype's signature whose erasure takes the implementation's type. The
     * agent only asks this of methods it rewrote, which it matched with the type arguments applied.
     */
    private static Match match(Method declared, Method m) {
        Class<?>[] dp = declared.getParameterTypes();
        Class<?>[] mp = m.getParameterTypes();
        java.lang.reflect.Type[] generic = declared.getGenericParameterTypes();
        boolean exact = true;
        for (int i = 0; i < dp.length; i++) {
            if (dp[i] == mp[i]) {
                continue;
            }
            exact = false;
            boolean variable = i < generic.length && !(generic[i] instanceof Class<?>);
            if (!variable || !dp[i].isAssignableFrom(mp[i])) {
                return Match.NONE;
            }
        }
        return exact ? Match.EXACT : Match.THROUGH_TYPE_VARIABLE;
    }
}

package dev.effectful.runtime.tool;

import dev.effectful.EffectfulTool;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
        Map<TypeVariable<?>, Type> bindings = null;
        for (Method c : type.getDeclaredMethods()) {
            EffectfulTool spec = c.getAnnotation(EffectfulTool.class);
            if (spec == null || c.isBridge() || !c.getName().equals(m.getName())
                    || c.getParameterCount() != m.getParameterCount()
                    || Modifier.isStatic(c.getModifiers()) || Modifier.isPrivate(c.getModifiers())) {
                continue;
            }
            if (Arrays.equals(c.getParameterTypes(), m.getParameterTypes())) {
                return Optional.of(new DeclaredTool(c, spec));
            }
            // Port<T>.pay(T) implemented as pay(String): compare with the type arguments applied
            if (bindings == null) {
                bindings = bindings(m.getDeclaringClass());
            }
            if (Arrays.equals(erasures(c.getGenericParameterTypes(), bindings), m.getParameterTypes())) {
                return Optional.of(new DeclaredTool(c, spec));
            }
        }
        return Optional.empty();
    }

    /** Every type variable of every supertype of {@code type}, bound to the argument it is given. */
    private static Map<TypeVariable<?>, Type> bindings(Class<?> type) {
        Map<TypeVariable<?>, Type> out = new HashMap<>();
        bind(type, out, 0);
        return out;
    }

    private static void bind(Class<?> type, Map<TypeVariable<?>, Type> out, int depth) {
        if (depth > 64) {
            return;
        }
        List<Type> supers = new ArrayList<>(List.of(type.getGenericInterfaces()));
        if (type.getGenericSuperclass() != null) {
            supers.add(type.getGenericSuperclass());
        }
        for (Type s : supers) {
            Class<?> raw = erasure(s, out);
            if (s instanceof ParameterizedType p) {
                TypeVariable<?>[] vars = raw.getTypeParameters();
                Type[] args = p.getActualTypeArguments();
                for (int i = 0; i < vars.length && i < args.length; i++) {
                    out.put(vars[i], args[i] instanceof TypeVariable<?> v && out.containsKey(v) ? out.get(v) : args[i]);
                }
            }
            bind(raw, out, depth + 1);
        }
    }

    private static Class<?>[] erasures(Type[] types, Map<TypeVariable<?>, Type> bindings) {
        Class<?>[] out = new Class<?>[types.length];
        for (int i = 0; i < types.length; i++) {
            out[i] = erasure(types[i], bindings);
        }
        return out;
    }

    private static Class<?> erasure(Type t, Map<TypeVariable<?>, Type> bindings) {
        if (t instanceof Class<?> c) {
            return c;
        }
        if (t instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (t instanceof GenericArrayType a) {
            return java.lang.reflect.Array.newInstance(erasure(a.getGenericComponentType(), bindings), 0).getClass();
        }
        if (t instanceof TypeVariable<?> v) {
            Type bound = bindings.get(v);
            return bound != null && bound != v ? erasure(bound, bindings) : erasure(v.getBounds()[0], bindings);
        }
        if (t instanceof WildcardType w) {
            return erasure(w.getUpperBounds()[0], bindings);
        }
        return Object.class;
    }
}

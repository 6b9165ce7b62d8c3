package dev.effectful.runtime.classify;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Calls a no-argument or one-String-argument public method by name on an object of a class we do
 * not compile against, and never throws. Lookups are cached per class, since the same few
 * exception classes come back again and again.
 */
final class Reflect {

    private static final ClassValue<ConcurrentMap<String, Optional<Method>>> CACHE = new ClassValue<>() {
        @Override
        protected ConcurrentMap<String, Optional<Method>> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>(4);
        }
    };

    private static final Class<?>[] NO_PARAMS = {};
    private static final Class<?>[] ONE_STRING = {String.class};

    private Reflect() {
    }

    /** {@code target.name()}, or null when there is no such method or it failed. */
    static Object call(Object target, String name) {
        return invoke(target, name, NO_PARAMS, new Object[0]);
    }

    /** {@code target.name(arg)}, or null when there is no such method or it failed. */
    static Object call(Object target, String name, String arg) {
        return invoke(target, name, ONE_STRING, new Object[] {arg});
    }

    private static Object invoke(Object target, String name, Class<?>[] params, Object[] args) {
        if (target == null) {
            return null;
        }
        try {
            Class<?> type = target.getClass();
            String key = params.length == 0 ? name : name + "(String)";
            Optional<Method> m = CACHE.get(type).computeIfAbsent(key, k -> find(type, name, params));
            return m.isPresent() ? m.get().invoke(target, args) : null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // classification must go on with what it has
        }
    }

    private static Optional<Method> find(Class<?> type, String name, Class<?>[] params) {
        Method found;
        try {
            found = type.getMethod(name, params);
        } catch (NoSuchMethodException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
        if (Modifier.isStatic(found.getModifiers())) {
            return Optional.empty();
        }
        // The runtime class is often a hidden implementation (Spring's DefaultHttpStatusCode,
        // ReadOnlyHttpHeaders); calling through it fails, calling through its public API works.
        Method declared = publicDeclaration(type, name, params);
        if (declared != null) {
            return Optional.of(declared);
        }
        return found.trySetAccessible() ? Optional.of(found) : Optional.empty();
    }

    private static Method publicDeclaration(Class<?> type, String name, Class<?>[] params) {
        Deque<Class<?>> todo = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            Class<?> k = todo.poll();
            if (!seen.add(k)) {
                continue;
            }
            if (reachable(k)) {
                try {
                    Method m = k.getMethod(name, params);
                    if (reachable(m.getDeclaringClass())) {
                        return m;
                    }
                } catch (NoSuchMethodException absentHere) {
                    // a supertype may still declare it
                }
            }
            if (k.getSuperclass() != null) {
                todo.add(k.getSuperclass());
            }
            todo.addAll(java.util.List.of(k.getInterfaces()));
        }
        return null;
    }

    private static boolean reachable(Class<?> k) {
        return Modifier.isPublic(k.getModifiers()) && k.getModule().isExported(k.getPackageName());
    }
}

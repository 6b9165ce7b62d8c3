package dev.effectful.runtime.tool;

import dev.effectful.ItemKey;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How a batch tool's items are found: the index of its {@code @Items} collection parameter, the
 * noun used in messages (the parameter's name: "38 of 40 rows written"), and each element's
 * {@code @ItemKey}, read from a record component, a field or a no-argument method.
 */
public record BatchSpec(int itemsIndex, String noun) {

    private static final ClassValue<AccessibleObject> KEY_ACCESSORS = new ClassValue<>() {
        @Override
        protected AccessibleObject computeValue(Class<?> type) {
            return findKey(type);
        }
    };

    /** The item's id; throws IllegalArgumentException naming the type when it has no @ItemKey. */
    public String itemId(Object item) {
        if (item == null) {
            throw new IllegalArgumentException("a null item in the " + noun + " collection");
        }
        AccessibleObject accessor = KEY_ACCESSORS.get(item.getClass());
        if (accessor == null) {
            throw new IllegalArgumentException(item.getClass().getName() + " has no @ItemKey record component, field or"
                    + " method, so its items cannot be told apart");
        }
        try {
            Object id = accessor instanceof Field f ? f.get(item) : ((Method) accessor).invoke(item);
            if (id == null) {
                throw new IllegalArgumentException("an item of " + noun + " has a null @ItemKey");
            }
            return String.valueOf(id);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot read the @ItemKey of " + item.getClass().getName() + ": " + e, e);
        }
    }

    /** A collection of the same kind as {@code original} holding only {@code items}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Collection<Object> sameKind(Collection<?> original, List<Object> items) {
        try {
            Collection c = original.getClass().getDeclaredConstructor().newInstance();
            c.addAll(items);
            return c;
        } catch (ReflectiveOperationException | RuntimeException immutableOrNoDefaultConstructor) {
            if (original instanceof Set<?>) {
                return original instanceof java.util.SortedSet<?> ? new java.util.TreeSet<>(items) : new LinkedHashSet<>(items);
            }
            return original instanceof List<?> && isImmutable(original) ? List.copyOf(items) : new ArrayList<>(items);
        }
    }

    private static boolean isImmutable(Collection<?> c) {
        return c.getClass().getName().startsWith("java.util.ImmutableCollections");
    }

    private static AccessibleObject findKey(Class<?> type) {
        if (type.isRecord()) {
            for (RecordComponent rc : type.getRecordComponents()) {
                if (rc.isAnnotationPresent(ItemKey.class)) {
                    return open(rc.getAccessor());
                }
            }
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(ItemKey.class)) {
                    return open(f);
                }
            }
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(ItemKey.class) && m.getParameterCount() == 0) {
                    return open(m);
                }
            }
        }
        for (Class<?> i : type.getInterfaces()) {
            for (Method m : i.getMethods()) {
                if (m.isAnnotationPresent(ItemKey.class) && m.getParameterCount() == 0) {
                    return m;
                }
            }
        }
        return null;
    }

    private static AccessibleObject open(AccessibleObject o) {
        try {
            o.setAccessible(true);
        } catch (RuntimeException notOpen) {
            // public members of exported packages still work without it
        }
        return o;
    }
}

package dev.effectful.runtime.tool;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Optional;

/**
 * The return types a probe may declare for a tool returning {@code T} (docs/API.md, "Probes"):
 * {@code T} itself (or a subtype; the boxed type for a primitive {@code T}, so null can say
 * absent), {@code Optional<T>}, or {@code boolean}/{@code Boolean} (true: found, without a value
 * unless the tool itself returns boolean). A {@code void} tool's probe may return anything: only
 * found or absent counts.
 */
final class ProbeForms {

    private ProbeForms() {
    }

    /** Null when {@code probe} may probe for {@code tool}; else what is wrong, to append to the probe's name. */
    static String mismatch(Method tool, Method probe) {
        // an async tool or probe is compared by the value its work completes with
        Class<?> t = valueClass(tool);
        Class<?> p = valueClass(probe);
        if (p == boolean.class || p == Boolean.class) {
            return null;
        }
        if (p == void.class) {
            return "returns void, so it can never say what it found; " + accepted(t);
        }
        if (t == void.class) {
            return null;
        }
        Class<?> value = boxed(t);
        if (value.isAssignableFrom(boxed(p))) {
            return null;
        }
        if (p == Optional.class) {
            Type arg = probe.getGenericReturnType() instanceof ParameterizedType pt ? pt.getActualTypeArguments()[0] : null;
            Class<?> content = arg == null ? Object.class : erasure(arg);
            if (value.isAssignableFrom(content)) {
                return null;
            }
            return "returns " + probe.getGenericReturnType().getTypeName() + ", whose content is not a "
                    + value.getName() + "; " + accepted(t);
        }
        return "returns " + p.getName() + "; " + accepted(t);
    }

    private static String accepted(Class<?> t) {
        if (t == void.class) {
            return "a probe of a void tool returns boolean, Boolean, Optional or any value (null = absent)";
        }
        String v = boxed(t).getSimpleName();
        String own = t.isPrimitive() ? t.getName() + ", " + v : v;
        return "it must return " + own + ", Optional<" + v + ">, boolean or Boolean (null, an empty Optional or false"
                + " = absent)";
    }

    static Class<?> boxed(Class<?> c) {
        if (!c.isPrimitive()) {
            return c;
        }
        return java.lang.invoke.MethodType.methodType(c).wrap().returnType();
    }

    /** The return type, or for a guarded async shape the class of the value its work completes with. */
    static Class<?> valueClass(Method m) {
        AsyncShape shape = AsyncShape.of(m);
        return shape == null || shape.refused() ? m.getReturnType() : erasure(shape.valueType(m));
    }

    static Class<?> erasure(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType pt) {
            return erasure(pt.getRawType());
        }
        if (type instanceof WildcardType w) {
            return erasure(w.getUpperBounds()[0]);
        }
        if (type instanceof TypeVariable<?> v) {
            return erasure(v.getBounds()[0]);
        }
        if (type instanceof GenericArrayType g) {
            return java.lang.reflect.Array.newInstance(erasure(g.getGenericComponentType()), 0).getClass();
        }
        return Object.class;
    }
}

package dev.effectful.runtime.tool;

import dev.effectful.IntentKey;
import dev.effectful.Slot;
import dev.effectful.core.json.NotCanonicalException;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.core.values.ParamSpec;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code @IntentKey} and {@code @Slot} on the fields or record components of a tool's one input object,
 * the shape SDKs bind a model's arguments into: a record or class as the tool's single parameter, or
 * the tool object itself for a tool method without parameters (a {@code Supplier}-style tool class whose
 * fields the SDK fills). Used only when no parameter carries either annotation; then the annotated
 * components, in declaration order (a superclass's fields first), stand for parameters of those names,
 * so the key is derived exactly as for annotated parameters and a rephrased retry of the same object
 * keeps its key.
 */
public final class ComponentKeys {

    /** One annotated component: how to read it, and how it counts in the key. */
    private record Component(String name, boolean intentKey, boolean slot, Accessor read) {
    }

    @FunctionalInterface
    private interface Accessor {
        Object get(Object from) throws ReflectiveOperationException;
    }

    /** Per type, its annotated components; empty when it has none (most types). */
    private static final ClassValue<List<Component>> COMPONENTS = new ClassValue<>() {
        @Override
        protected List<Component> computeValue(Class<?> type) {
            return scan(type);
        }
    };

    /** The values and specs that stand for the call's arguments in its key. */
    public record Substitute(Object[] values, ParamSpec[] specs) {
    }

    private ComponentKeys() {
    }

    /** Whether a tool whose parameters carry no key annotation is keyed by this type's components. */
    public static boolean declaredOn(Class<?> type) {
        return type != null && !type.isPrimitive() && !type.isArray() && !COMPONENTS.get(type).isEmpty();
    }

    /**
     * The components that key this call, or null when its parameters carry the annotations themselves
     * (or nothing carries them): then the call is keyed as before.
     *
     * @throws NotCanonicalException when an annotated component cannot be read (a module that does not
     *     open its package): the call is refused rather than keyed without its target
     */
    /**
     * {@link ArgsRenderer#keyParts(Object[], ParamSpec[])} for a call on {@code self}: when no parameter
     * carries {@code @IntentKey} or {@code @Slot}, the annotated fields or record components of the one
     * input object (the single argument, or {@code self} for a tool without parameters) stand for them.
     * Here rather than in the renderer because finding them reads the API's annotations, which the core
     * module does not see.
     */
    public static ArgsRenderer.KeyParts keyParts(ArgsRenderer renderer, Object self, Object[] args, ParamSpec[] specs)
            throws NotCanonicalException {
        Substitute components = forCall(self, args, specs);
        return components == null ? renderer.keyParts(args, specs) : renderer.keyParts(components.values(), components.specs());
    }

    static Substitute forCall(Object self, Object[] args, ParamSpec[] specs) throws NotCanonicalException {
        if (specs != null) {
            for (ParamSpec s : specs) {
                if (s != null && (s.intentKey() || s.slot())) {
                    return null;
                }
            }
        }
        Object input = args != null && args.length == 1 ? args[0] : args == null || args.length == 0 ? self : null;
        if (input == null) {
            return null;
        }
        List<Component> components = COMPONENTS.get(input.getClass());
        if (components.isEmpty()) {
            return null;
        }
        Object[] values = new Object[components.size()];
        ParamSpec[] componentSpecs = new ParamSpec[components.size()];
        for (int i = 0; i < values.length; i++) {
            Component c = components.get(i);
            try {
                values[i] = c.read().get(input);
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new NotCanonicalException("@" + (c.intentKey() ? "IntentKey" : "Slot") + " component '" + c.name()
                        + "' of " + input.getClass().getName() + " cannot be read (" + e.getClass().getSimpleName()
                        + "); open its package to the agent, or annotate the tool's parameters instead");
            }
            componentSpecs[i] = new ParamSpec(c.name(), c.intentKey(), c.slot(), false);
        }
        return new Substitute(values, componentSpecs);
    }

    private static List<Component> scan(Class<?> type) {
        if (type.getName().startsWith("java.") || type.isInterface()) {
            return List.of();
        }
        List<Component> out = new ArrayList<>();
        if (type.isRecord()) {
            for (RecordComponent rc : type.getRecordComponents()) {
                if (annotated(rc)) {
                    Method accessor = rc.getAccessor();
                    out.add(new Component(rc.getName(), rc.isAnnotationPresent(IntentKey.class), rc.isAnnotationPresent(Slot.class),
                            from -> accessible(accessor).invoke(from)));
                }
            }
            return List.copyOf(out);
        }
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            chain.add(0, c);
        }
        for (Class<?> c : chain) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && annotated(f)) {
                    out.add(new Component(f.getName(), f.isAnnotationPresent(IntentKey.class), f.isAnnotationPresent(Slot.class),
                            from -> accessible(f).get(from)));
                }
            }
        }
        return List.copyOf(out);
    }

    private static boolean annotated(AnnotatedElement e) {
        return e.isAnnotationPresent(IntentKey.class) || e.isAnnotationPresent(Slot.class);
    }

    private static <T extends java.lang.reflect.AccessibleObject> T accessible(T member) {
        member.setAccessible(true);
        return member;
    }
}

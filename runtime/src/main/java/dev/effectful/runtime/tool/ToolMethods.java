package dev.effectful.runtime.tool;

import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Items;
import dev.effectful.Redact;
import dev.effectful.Slot;
import dev.effectful.runtime.classify.ToolOverrides;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.values.ParamSpec;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves the rewritten method a call comes from, once per method. The advice passes the
 * declaring class and a constant "name(descriptor)return" string; reflection happens only on the
 * first call of each method.
 */
public final class ToolMethods {

    private final ClassValue<Map<String, ToolMethod>> cache = new ClassValue<>() {
        @Override
        protected Map<String, ToolMethod> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    /** Told once of each tool this process describes (the first call of it); never on the hot path after. */
    private final java.util.function.Consumer<ToolMethod> onFirstUse;

    public ToolMethods() {
        this(tool -> { });
    }

    /** Tools that tell {@code onFirstUse} of each one the first time it is described. */
    public ToolMethods(java.util.function.Consumer<ToolMethod> onFirstUse) {
        this.onFirstUse = onFirstUse;
    }

    /** The tool for {@code methodAndDescriptor} of {@code type}; throws when it is not an @EffectfulTool. */
    public ToolMethod resolve(Class<?> type, String methodAndDescriptor) {
        Map<String, ToolMethod> perClass = cache.get(type);
        ToolMethod tm = perClass.get(methodAndDescriptor);
        if (tm == null) {
            boolean[] described = {false};
            tm = perClass.computeIfAbsent(methodAndDescriptor, sig -> {
                described[0] = true;
                return describe(find(type, sig), type);
            });
            if (described[0]) {
                onFirstUse.accept(tm);
            }
        }
        return tm;
    }

    /** The annotation a rewritten method is guarded with, its own or inherited; empty when none. */
    public static Optional<EffectfulTool> annotationOf(Class<?> type, String methodAndDescriptor) {
        try {
            return DeclaredTool.of(find(type, methodAndDescriptor)).map(DeclaredTool::spec);
        } catch (IllegalStateException notThere) {
            return Optional.empty();
        }
    }

    static Method find(Class<?> type, String sig) {
        for (Method m : type.getDeclaredMethods()) {
            if (!m.isBridge() && sig.equals(m.getName() + descriptor(m))) {
                return m;
            }
        }
        throw new IllegalStateException("no method " + sig + " in " + type.getName());
    }

    static String descriptor(Method m) {
        StringBuilder sb = new StringBuilder("(");
        for (Class<?> p : m.getParameterTypes()) {
            sb.append(descriptor(p));
        }
        return sb.append(')').append(descriptor(m.getReturnType())).toString();
    }

    private static String descriptor(Class<?> c) {
        if (c.isArray()) {
            return c.getName().replace('.', '/');
        }
        if (c.isPrimitive()) {
            if (c == void.class) return "V";
            if (c == boolean.class) return "Z";
            if (c == byte.class) return "B";
            if (c == char.class) return "C";
            if (c == short.class) return "S";
            if (c == int.class) return "I";
            if (c == long.class) return "J";
            if (c == float.class) return "F";
            return "D";
        }
        return "L" + c.getName().replace('.', '/') + ";";
    }

    /**
     * {@code m} is the rewritten method (its return type is what callers get); its annotation and
     * parameter annotations come from where it is declared, itself or a supertype method it
     * implements. Probes and checks are looked up on {@code runtimeType}, the rewritten class.
     */
    static ToolMethod describe(Method m, Class<?> runtimeType) {
        DeclaredTool declared = DeclaredTool.of(m)
                .orElseThrow(() -> new IllegalStateException(m + " is not annotated @EffectfulTool"));
        EffectfulTool spec = declared.spec();
        Method source = declared.declaring();
        if (declared.inherited(m)) {
            AgentLog.debug("effectful guards " + m.getDeclaringClass().getName() + "." + m.getName()
                    + " with the @EffectfulTool of " + source.getDeclaringClass().getName() + "." + source.getName());
        }
        String verb = spec.name().isBlank() ? m.getName() : spec.name();
        String keyHeader = KeyHeaderNames.validated(m, spec.keyHeader());
        AsyncShape shape = AsyncShape.of(m);
        // a suspend function's trailing Continuation is Kotlin's plumbing, never part of the intent
        Parameter[] ps = java.util.Arrays.copyOf(m.getParameters(), shape == null ? m.getParameterCount()
                : shape.callerParameters(m));
        Parameter[] from = source.getParameters();
        ParamSpec[] params = new ParamSpec[ps.length];
        boolean hasKey = false;
        Optional<BatchSpec> batch = Optional.empty();
        for (int i = 0; i < ps.length; i++) {
            String name = ps[i].isNamePresent() || !from[i].isNamePresent() ? ps[i].getName() : from[i].getName();
            if (from[i].isAnnotationPresent(Items.class)) {
                if (!java.util.Collection.class.isAssignableFrom(ps[i].getType())) {
                    throw new IllegalStateException("@Items on " + m + " parameter " + name
                            + " must be a java.util.Collection");
                }
                batch = Optional.of(new BatchSpec(i, name));
            }
            boolean key = from[i].isAnnotationPresent(IntentKey.class);
            hasKey |= key;
            // @Redact from either declaration: a secret marked anywhere stays out of the journal
            params[i] = new ParamSpec(name, key, from[i].isAnnotationPresent(Slot.class),
                    from[i].isAnnotationPresent(Redact.class) || ps[i].isAnnotationPresent(Redact.class));
        }
        // an SDK's way: the key annotations on the fields or record components of the one input object
        // (the single parameter, or the tool object itself when there is none)
        boolean componentKeys = !hasKey && !java.util.Arrays.stream(params).anyMatch(ParamSpec::slot)
                && (ps.length == 1 ? ComponentKeys.declaredOn(ps[0].getType())
                : ps.length == 0 && ComponentKeys.declaredOn(runtimeType));
        hasKey |= componentKeys;
        if (!hasKey) {
            AgentLog.warnOnce("nokey:" + m, "tool " + verb + " (" + m.getDeclaringClass().getName() + "." + m.getName()
                    + ") has no @IntentKey parameter: its calls are keyed by task, verb and call order within the task,"
                    + " which is weaker; mark the parameter naming what is acted on with @IntentKey");
        }
        if (ps.length > 0 && !ps[0].isNamePresent() && !from[0].isNamePresent()) {
            AgentLog.warnOnce("noparams:" + m.getDeclaringClass().getName(), m.getDeclaringClass().getName()
                    + " was compiled without -parameters: the journal shows arguments as arg0, arg1...");
        }
        return new ToolMethod(m, spec.kind(), verb, params, hasKey, probeOf(m, runtimeType, spec.probe()),
                checkOf(m, runtimeType, spec.check()),
                new ToolOverrides(List.of(spec.permanentOn()), List.of(spec.retryableOn())),
                // the user's promise only: a key header counts per attempt, once a key_sent record shows the key left
                spec.keyable(),
                Math.max(0, spec.floorMillis()), Math.max(0, spec.timeoutMillis()),
                // an async tool's stored result is what its work completed with, not the promise
                shape == null || shape.refused() ? m.getGenericReturnType() : shape.valueType(m), batch,
                keyHeader == null ? "" : keyHeader, approvalRequired(spec));
    }

    /**
     * {@code approval = REQUIRED}; false with an API older than approvals (an application's own copy of the
     * annotations has no such member: its tools need approval only by configuration).
     */
    private static boolean approvalRequired(EffectfulTool spec) {
        try {
            return spec.approval() == dev.effectful.Approval.REQUIRED;
        } catch (LinkageError | RuntimeException olderApi) {
            return false;
        }
    }

    private static Optional<Method> probeOf(Method tool, Class<?> runtimeType, String name) {
        if (name.isBlank()) {
            return Optional.empty();
        }
        try {
            Method probe = probeIn(runtimeType, name, tool);
            String wrong = ProbeForms.mismatch(tool, probe);
            if (wrong != null) {
                AgentLog.errorOnce("probe:" + tool, "probe " + name + " of " + tool + " " + wrong
                        + "; the tool runs as if it declared no probe", null);
                return Optional.empty();
            }
            probe.setAccessible(true);
            return Optional.of(probe);
        } catch (NoSuchMethodException | RuntimeException e) {
            AgentLog.errorOnce("probe:" + tool, "probe " + name + " of " + tool
                    + " not found (it needs the same parameter types); the tool runs as if it declared no probe", null);
            return Optional.empty();
        }
    }

    /**
     * The probe with the tool's parameter types; for a suspend tool also without its trailing
     * continuation, so a plain probe (or a Kotlin one found by its Kotlin parameter list) matches.
     */
    private static Method probeIn(Class<?> type, String name, Method tool) throws NoSuchMethodException {
        Class<?>[] params = tool.getParameterTypes();
        try {
            return declaredInHierarchy(type, name, params);
        } catch (NoSuchMethodException | RuntimeException notThere) {
            if (AsyncShape.of(tool) != AsyncShape.SUSPEND) {
                throw notThere;
            }
            return declaredInHierarchy(type, name, java.util.Arrays.copyOf(params, params.length - 1));
        }
    }

    /** The class itself first, then its superclasses, then public (default) methods of its interfaces. */
    private static Method declaredInHierarchy(Class<?> type, String name, Class<?>[] params) throws NoSuchMethodException {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                return c.getDeclaredMethod(name, params);
            } catch (NoSuchMethodException notHere) {
                // keep climbing
            }
        }
        return type.getMethod(name, params);
    }

    private static Optional<Method> checkOf(Method tool, Class<?> runtimeType, String name) {
        if (name.isBlank()) {
            return Optional.empty();
        }
        for (Class<?> type = runtimeType; type != null && type != Object.class; type = type.getSuperclass()) {
            for (Method c : type.getDeclaredMethods()) {
                if (c.getName().equals(name) && c.getParameterCount() == 1
                        && c.getParameterTypes()[0].isAssignableFrom(boxed(tool.getReturnType()))) {
                    c.setAccessible(true);
                    return Optional.of(c);
                }
            }
        }
        AgentLog.errorOnce("check:" + tool, "result check " + name + " of " + tool
                + " not found (one parameter taking the tool's return type); results are not checked", null);
        return Optional.empty();
    }

    private static Class<?> boxed(Class<?> c) {
        if (!c.isPrimitive()) {
            return c;
        }
        return java.lang.invoke.MethodType.methodType(c).wrap().returnType();
    }
}

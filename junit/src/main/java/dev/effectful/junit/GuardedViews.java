package dev.effectful.junit;

import dev.effectful.EffectfulTool;
import dev.effectful.Items;
import dev.effectful.Task;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.Completion;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.dynamic.scaffold.subclass.ConstructorStrategy;
import net.bytebuddy.implementation.InvocationHandlerAdapter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static net.bytebuddy.matcher.ElementMatchers.isFinalizer;
import static net.bytebuddy.matcher.ElementMatchers.isVirtual;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * Guarded views of tool objects: a subclass made with Byte Buddy whose every overridable method
 * forwards to the user's own object, and whose {@code @EffectfulTool} methods go through the real
 * engine on the way, keeping the contract the agent's inlined advice keeps: {@code enter}, the
 * arguments the engine hands the body, the body unless the engine skips it, {@code exit}, and then
 * the engine's value or exception. No agent, no class-loader tricks: the user's class is untouched.
 *
 * <p>The view is made without running a constructor of the tool class (the JDK's serialization
 * constructor, as mocking libraries do), so it needs nothing the user's constructor needs.
 */
final class GuardedViews {

    static final String HANDLER_FIELD = "effectful$kit$handler";

    private static final ClassValue<Class<?>> VIEWS = new ClassValue<>() {
        @Override
        protected Class<?> computeValue(Class<?> type) {
            return makeViewClass(type);
        }
    };

    private GuardedViews() {
    }

    /** A view of {@code target} whose tool calls go through {@code engine} (read at each call). */
    static <T> T guard(T target, Supplier<KitProcess> process, CallLog log, KeyRelay keys) {
        return view(target.getClass(), guardingHandler(target, process, log, keys));
    }

    /** A view that records which method a call lambda uses, without running anything. */
    static <T> T recorder(Class<?> type, Method[] seen, Object[][] args) {
        return view(type, (proxy, method, a) -> {
            if (seen[0] == null && toolAnnotation(type, method).isPresent()) {
                seen[0] = method;
                args[0] = a == null ? new Object[0] : a.clone();
            }
            return defaultValue(method.getReturnType());
        });
    }

    @SuppressWarnings("unchecked")
    private static <T> T view(Class<?> type, InvocationHandler handler) {
        if (Modifier.isFinal(type.getModifiers())) {
            throw new IllegalArgumentException(type.getName() + " is final, so the effectful kit cannot make a guarded"
                    + " view of it: remove 'final' from the tool class (the kit subclasses it, like a mock)");
        }
        Class<?> viewType = VIEWS.get(type);
        try {
            Object view = newWithoutConstructor(viewType);
            Field f = viewType.getDeclaredField(HANDLER_FIELD);
            f.setAccessible(true);
            f.set(view, handler);
            return (T) view;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("effectful kit: cannot make a guarded view of " + type.getName() + ": " + e, e);
        }
    }

    private static InvocationHandler guardingHandler(Object target, Supplier<KitProcess> process, CallLog log,
                                                     KeyRelay keys) {
        Class<?> type = target.getClass();
        return (proxy, method, args) -> {
            Object[] a = args == null ? new Object[0] : args;
            Optional<Method> tool = toolMethod(type, method);
            if (tool.isEmpty()) {
                return invoke(method, target, a);
            }
            Method declared = tool.get();
            EffectfulTool spec = declared.getAnnotation(EffectfulTool.class);
            KitProcess running = process.get();
            CallEngine engine = running.engine();
            String sig = declared.getName() + MethodType.methodType(declared.getReturnType(),
                    declared.getParameterTypes()).toMethodDescriptorString();
            long deadline = deadlineNanos(spec);
            Object handle = engine.enter(declared.getDeclaringClass(), sig, target, a.clone());
            if (handle == null) {
                // a guarded call of the same intent encloses this one (a proxy or subclass in front of it):
                // it runs as part of that attempt; a tool the engine cannot read throws from enter instead
                log.add(new CallLog.Entry(declared, a.clone(), a.clone()));
                return invoke(method, target, a);
            }
            Object[] bodyArgs = engine.arguments(handle, a);
            Object returned = null;
            Throwable thrown = null;
            boolean ran = !engine.skipBody(handle);
            log.add(new CallLog.Entry(declared, a.clone(), ran ? bodyArgs.clone() : null));
            if (ran) {
                boolean batch = Arrays.stream(declared.getParameters()).anyMatch(p -> p.isAnnotationPresent(Items.class));
                CallLog.Body body = log.bodyStarted(deadline);
                KeyRelay.Carrier key = keys.open(spec, batch);
                try {
                    returned = invoke(method, target, bodyArgs);
                } catch (SimulatedCrash crash) {
                    throw crash;
                } catch (Throwable t) {
                    thrown = t;
                } finally {
                    if (key != null) {
                        key.close();
                    }
                    log.bodyEnded(body);
                }
                if (running.dead()) {
                    // The process died while the body ran: nothing it writes from here reaches the journal (the
                    // outcome is lost), but its engine still lets go of this thread, as a dead process's threads
                    // are gone with it: no deadline alarm left armed, no attempt left current on the test thread.
                    try {
                        engine.exit(handle, returned, thrown);
                    } catch (RuntimeException | LinkageError ignored) {
                        // a dead process answers nobody
                    }
                    throw new SimulatedCrash("the process died during " + declared.getName());
                }
            }
            Completion done = engine.exit(handle, returned, thrown);
            Throwable toThrow = engine.thrown(handle);
            if (toThrow != null) {
                throw toThrow;
            }
            return done.value();
        };
    }

    /** When the engine's alarm for a body starting now goes off: min(task deadline, timeoutMillis). */
    private static long deadlineNanos(EffectfulTool spec) {
        long now = System.nanoTime();
        long cap = Long.MAX_VALUE;
        Optional<Task> task = Task.current();
        if (task.isPresent()) {
            cap = task.get().remaining().toNanos();
        }
        if (spec.timeoutMillis() > 0) {
            cap = Math.min(cap, TimeUnit.MILLISECONDS.toNanos(spec.timeoutMillis()));
        }
        return cap == Long.MAX_VALUE ? Long.MAX_VALUE : now + cap;
    }

    /** Calls the user's own method; with an agent in the JVM, it stands aside (the kit guards this call). */
    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        return AgentStandAside.run(() -> {
            try {
                method.setAccessible(true);
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    /** The {@code @EffectfulTool} declaration {@code method} overrides or is, in the class or its superclasses. */
    static Optional<Method> toolMethod(Class<?> type, Method method) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod(method.getName(), method.getParameterTypes());
                if (m.isAnnotationPresent(EffectfulTool.class) && !m.isBridge()) {
                    return Optional.of(m);
                }
            } catch (NoSuchMethodException notHere) {
                // look further up
            }
        }
        return Optional.empty();
    }

    static Optional<EffectfulTool> toolAnnotation(Class<?> type, Method method) {
        return toolMethod(type, method).map(m -> m.getAnnotation(EffectfulTool.class));
    }

    private static Class<?> makeViewClass(Class<?> type) {
        var builder = new ByteBuddy()
                .subclass(type, ConstructorStrategy.Default.NO_CONSTRUCTORS)
                .defineField(HANDLER_FIELD, InvocationHandler.class, Visibility.PRIVATE)
                .method(isVirtual().and(not(isFinalizer())))
                .intercept(InvocationHandlerAdapter.toField(HANDLER_FIELD));
        var unloaded = builder.make();
        try {
            // in the tool's own package and loader, so package-private tool methods are overridden too
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            return standAside(unloaded.load(type.getClassLoader(), ClassLoadingStrategy.UsingLookup.of(lookup))
                    .getLoaded());
        } catch (IllegalAccessException | RuntimeException inANamedModule) {
            return standAside(unloaded.load(type.getClassLoader(), ClassLoadingStrategy.Default.WRAPPER).getLoaded());
        }
    }

    /** The view overrides the tool methods, so an agent would see inherited tools in it: they are the kit's. */
    private static Class<?> standAside(Class<?> view) {
        AgentStandAside.viewClass(view);
        return view;
    }

    @SuppressWarnings("removal")
    private static Object newWithoutConstructor(Class<?> type) throws ReflectiveOperationException {
        Constructor<?> objectConstructor = Object.class.getDeclaredConstructor();
        Constructor<?> c = sun.reflect.ReflectionFactory.getReflectionFactory()
                .newConstructorForSerialization(type, objectConstructor);
        return c.newInstance();
    }

    static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive() || type == void.class) {
            return type == Optional.class ? Optional.empty() : null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == double.class) {
            return 0d;
        }
        if (type == float.class) {
            return 0f;
        }
        if (type == short.class) {
            return (short) 0;
        }
        return type == byte.class ? (byte) 0 : 0;
    }
}

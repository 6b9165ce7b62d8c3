package dev.effectful.agent.installer;

import dev.effectful.agent.bridge.LoadingGuard;
import dev.effectful.core.log.AgentLog;
import net.bytebuddy.jar.asm.ClassReader;

import java.lang.annotation.Annotation;
import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Guards the classes the JVM makes without a class file a transformer could see.
 *
 * <p><b>Lambdas and method references</b> of an interface whose functional method is an
 * {@code @EffectfulTool}: the JVM spins a hidden class for them, which no transformer sees and which
 * cannot be retransformed. Their call site is relinked so that each instance is a JDK dynamic proxy
 * of the interface in front of the lambda. Proxy classes do reach the transformer, which weaves the
 * tool method they implement like any other implementation of an annotated interface, so a call of
 * the lambda takes the same guarded path as a call of a class implementing the interface. The
 * proxy forwards the call to the lambda through a method handle from the lambda's own lookup, and
 * {@code equals}, {@code hashCode}, {@code toString} to the lambda. Lambdas of every other interface
 * (JDK interfaces never get here) keep their call site untouched.
 *
 * <p><b>Hidden classes</b> defined with {@code Lookup.defineHiddenClass}: their class file is handed to
 * the same transformer as any class before it is defined, so a tool they declare or inherit is
 * woven as at an ordinary first load.
 */
final class LoadingGuards implements LoadingGuard {

    /** Made at the first tool lambda, not in premain: a method handle's first lookup spins JDK classes. */
    private static final class Proxies {
        static final MethodHandle PROXY;

        static {
            try {
                PROXY = MethodHandles.lookup().findStatic(LoadingGuards.class, "proxy",
                        MethodType.methodType(Object.class, Spec.class, Object.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    private final ClassLoader agentLoader;
    private final WeavingTransformer transformer;

    /** Per interface: the names of its abstract methods (its own or inherited) annotated as tools. */
    private final ClassValue<Set<String>> toolMethods = new ClassValue<>() {
        @Override
        protected Set<String> computeValue(Class<?> type) {
            return abstractTools(type);
        }
    };

    LoadingGuards(ClassLoader agentLoader, WeavingTransformer transformer) {
        this.agentLoader = agentLoader;
        this.transformer = transformer;
    }

    @Override
    public CallSite lambda(CallSite site, MethodHandles.Lookup caller, String methodName, MethodType factoryType) {
        Class<?> type = factoryType.returnType();
        try {
            // an interface the transformer saw without tools needs no reflection (a framework links thousands of lambdas)
            if (type.getClassLoader() == agentLoader || !type.isInterface()
                    || transformer.supertypes().knownWithoutTools(type.getClassLoader(), type.getName().replace('.', '/'))
                    || !toolMethods.get(type).contains(methodName)) {
                return site;
            }
            MethodHandle guarded = MethodHandles.filterReturnValue(site.getTarget(),
                    Proxies.PROXY.bindTo(new Spec(type, caller)).asType(MethodType.methodType(type, type)));
            if (factoryType.parameterCount() == 0) {
                // a lambda that captures nothing stays one instance, as the JDK makes it
                guarded = MethodHandles.constant(type, guarded.invoke());
            }
            AgentLog.debug("effectful guards a lambda of " + type.getName() + "." + methodName + " in "
                    + caller.lookupClass().getName());
            return new ConstantCallSite(guarded);
        } catch (Throwable t) {
            AgentLog.errorOnce("lambda:" + type.getName(), "effectful could not guard a lambda or method reference of "
                    + type.getName() + "." + methodName + " made in " + caller.lookupClass().getName()
                    + "; its calls run UNGUARDED: implement the interface with a class instead", t);
            return site;
        }
    }

    @Override
    public void beforeDefine(ClassLoader loader, byte[] bytes, int off, int len) {
        try {
            transformer.beforeDefine(loader, bytes, off, len);
        } catch (Throwable t) {
            // the agent never breaks a class load: without the preload, the transformer reads class files
            AgentLog.errorOnce("before-define", "effectful could not load a class's supertypes ahead of it; they are"
                    + " read as class files instead", t);
        }
    }

    @Override
    public byte[] hiddenClass(MethodHandles.Lookup lookup, byte[] bytes) {
        Class<?> host = lookup.lookupClass();
        ClassLoader loader = host.getClassLoader();
        if (loader == agentLoader || loader == null) {
            return bytes;
        }
        String name = null;
        try {
            name = new ClassReader(bytes).getClassName();
            byte[] rewritten = transformer.transform(host.getModule(), loader, name, null, host.getProtectionDomain(), bytes);
            return rewritten == null ? bytes : rewritten;
        } catch (Throwable t) {
            AgentLog.errorOnce("hidden:" + name, "effectful could not read the hidden class " + name + " defined by "
                    + host.getName() + "; a tool it declares runs UNGUARDED", t);
            return bytes;
        }
    }

    private static Set<String> abstractTools(Class<?> type) {
        Set<String> names = new HashSet<>();
        for (Method m : type.getMethods()) {
            if (Modifier.isAbstract(m.getModifiers()) && isTool(m)) {
                names.add(m.getName());
            }
        }
        return names.isEmpty() ? Set.of() : Set.copyOf(names);
    }

    private static boolean isTool(Method m) {
        for (Annotation a : m.getDeclaredAnnotations()) {
            if (a.annotationType().getName().equals(ToolWeaving.TOOL_ANNOTATION)) {
                return true;
            }
        }
        return false;
    }

    /** Called through {@link Proxies#PROXY}: one proxy per lambda instance. */
    private static Object proxy(Spec spec, Object lambda) {
        if (lambda == null) {
            return null;
        }
        return Proxy.newProxyInstance(spec.type().getClassLoader(), new Class<?>[] {spec.type()},
                new Forwarder(spec, lambda));
    }

    /** The interface a lambda implements and the lookup of the class that made it (it can reach the interface). */
    private record Spec(Class<?> type, MethodHandles.Lookup caller, Map<Method, MethodHandle> handles) {
        Spec(Class<?> type, MethodHandles.Lookup caller) {
            this(type, caller, new ConcurrentHashMap<>());
        }

        MethodHandle handle(Method m) throws IllegalAccessException {
            MethodHandle h = handles.get(m);
            if (h == null) {
                h = caller.unreflect(m);
                handles.put(m, h);
            }
            return h;
        }
    }

    /** The proxy's handler: the interface's methods go to the lambda, its default methods run on the proxy. */
    private record Forwarder(Spec spec, Object lambda) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Object[] a = args == null ? new Object[0] : args;
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == a[0] || lambda.equals(a[0]);
                    case "hashCode" -> lambda.hashCode();
                    default -> lambda.toString();
                };
            }
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, a);
            }
            return spec.handle(method).bindTo(lambda).invokeWithArguments(a);
        }
    }
}

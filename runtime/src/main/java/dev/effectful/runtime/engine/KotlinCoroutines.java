package dev.effectful.runtime.engine;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;

/**
 * Kotlin's coroutine plumbing, reached reflectively in the application's own Kotlin: the agent never
 * bundles Kotlin (the application's copy defines the continuation interface its code implements).
 * Resolved once per loader that sees Kotlin ({@link #of}); only suspend tools ever come here.
 *
 * <p>What the agent relies on, as Kotlin compiles a {@code suspend fun}: it is
 * {@code Object f(args..., Continuation)}; it returns {@code COROUTINE_SUSPENDED} when it suspends, and
 * its own state machine (a continuation class generated for it) later calls {@code f(null..., itself)}
 * again, having set the sign bit of its {@code label} field, which is how Kotlin itself tells that
 * resumption from a new call. When the state machine finishes it calls {@code resumeWith} on the
 * continuation the first call was given.
 */
final class KotlinCoroutines {

    private static final ClassValue<KotlinCoroutines> BY_TOOL_CLASS = new ClassValue<>() {
        @Override
        protected KotlinCoroutines computeValue(Class<?> type) {
            try {
                return new KotlinCoroutines(type.getClassLoader());
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                throw new IllegalStateException("Kotlin's coroutine classes cannot be reached from "
                        + type.getName() + " (" + e + ")", e);
            }
        }
    };

    /** Each state machine class's {@code label} field, or null when it has none (not a resumption then). */
    private static final ClassValue<Field> LABEL = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                try {
                    Field f = c.getDeclaredField("label");
                    if (f.getType() == int.class) {
                        f.setAccessible(true);
                        return f;
                    }
                } catch (NoSuchFieldException | RuntimeException notHere) {
                    // keep climbing
                }
            }
            return null;
        }
    };

    private final Class<?> continuation;
    private final Method getContext;
    private final Method resumeWith;
    private final Object suspended;
    private final Method createFailure;
    private final Class<?> failure;
    private final Field failureException;
    private final Method intercepted;
    private final Object emptyContext;
    private final Method contextGet;
    /** kotlinx.coroutines' {@code Job.Key} and {@code Job.cancel(CancellationException)}; null without kotlinx. */
    private final Object jobKey;
    private final Method jobCancel;

    private KotlinCoroutines(ClassLoader loader) throws ReflectiveOperationException {
        continuation = Class.forName("kotlin.coroutines.Continuation", false, loader);
        getContext = continuation.getMethod("getContext");
        resumeWith = continuation.getMethod("resumeWith", Object.class);
        Class<?> intrinsics = Class.forName("kotlin.coroutines.intrinsics.IntrinsicsKt", false, loader);
        // Kotlin's file facades inherit their public static methods from package-private parts
        suspended = accessible(intrinsics.getMethod("getCOROUTINE_SUSPENDED")).invoke(null);
        intercepted = accessible(intrinsics.getMethod("intercepted", continuation));
        createFailure = accessible(Class.forName("kotlin.ResultKt", false, loader).getMethod("createFailure",
                Throwable.class));
        failure = Class.forName("kotlin.Result$Failure", false, loader);
        failureException = failure.getField("exception");
        emptyContext = Class.forName("kotlin.coroutines.EmptyCoroutineContext", false, loader).getField("INSTANCE")
                .get(null);
        Class<?> context = Class.forName("kotlin.coroutines.CoroutineContext", false, loader);
        contextGet = context.getMethod("get", Class.forName("kotlin.coroutines.CoroutineContext$Key", false, loader));
        Object key = null;
        Method cancel = null;
        try {
            Class<?> job = Class.forName("kotlinx.coroutines.Job", false, loader);
            key = job.getField("Key").get(null);
            cancel = job.getMethod("cancel", CancellationException.class);
        } catch (ReflectiveOperationException | LinkageError noKotlinx) {
            // plain Kotlin without kotlinx.coroutines: the deadline answers the caller but cannot cancel a job
        }
        jobKey = key;
        jobCancel = cancel;
    }

    private static Method accessible(Method m) {
        m.setAccessible(true);
        return m;
    }

    /** Kotlin as the suspend tool's class sees it; throws when it cannot be reached. */
    static KotlinCoroutines of(Class<?> toolClass) {
        return BY_TOOL_CLASS.get(toolClass);
    }

    /** True when {@code continuation} is a state machine resuming itself: not a call, the body goes on. */
    static boolean isResumption(Object continuation) {
        if (continuation == null) {
            return false;
        }
        Field label = LABEL.get(continuation.getClass());
        try {
            return label != null && (label.getInt(continuation) & Integer.MIN_VALUE) != 0;
        } catch (IllegalAccessException | RuntimeException unreadable) {
            return false;
        }
    }

    boolean isSuspended(Object returned) {
        return returned == suspended;
    }

    Object suspendedMarker() {
        return suspended;
    }

    /**
     * A continuation the body completes instead of the caller's: same context (so the body runs on
     * the caller's dispatcher and in its job), and each {@code resumeWith} goes to {@code onResume}
     * with the value or the failure. A {@link Proxy} over the application's own interface.
     */
    Object continuation(Object context, Consumer<Settled> onResume) {
        InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
            case "getContext" -> context;
            case "resumeWith" -> {
                onResume.accept(settled(args[0]));
                yield null;
            }
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> "effectful guarded continuation";
            default -> throw new UnsupportedOperationException(method.getName());
        };
        return Proxy.newProxyInstance(continuation.getClassLoader(), new Class<?>[] {continuation}, handler);
    }

    /** The context of {@code callerContinuation}. */
    Object contextOf(Object callerContinuation) {
        return invoke(getContext, callerContinuation);
    }

    Object emptyContext() {
        return emptyContext;
    }

    /** A value or the failure a continuation was resumed with (Kotlin's {@code Result}, unboxed on the JVM). */
    record Settled(Object value, Throwable failure) {
    }

    private Settled settled(Object result) {
        if (failure.isInstance(result)) {
            try {
                return new Settled(null, (Throwable) failureException.get(result));
            } catch (IllegalAccessException e) {
                return new Settled(null, e);
            }
        }
        return new Settled(result, null);
    }

    /**
     * Resumes the caller's continuation. {@code dispatched}: through its dispatcher (the answer comes
     * from another coroutine's thread or a timer); otherwise on this thread, as Kotlin's own state
     * machine does when a callee completes.
     */
    void resume(Object callerContinuation, Object value, Throwable failed, boolean dispatched) {
        Object target = dispatched ? invoke(intercepted, null, callerContinuation) : callerContinuation;
        Object result = failed == null ? value : invoke(createFailure, null, failed);
        invoke(resumeWith, target, result);
    }

    /** Cancels the job in {@code callerContinuation}'s context; false when there is none to cancel. */
    boolean cancelJob(Object callerContinuation, String why) {
        if (jobKey == null) {
            return false;
        }
        Object job = invoke(contextGet, contextOf(callerContinuation), jobKey);
        if (job == null) {
            return false;
        }
        invoke(jobCancel, job, new CancellationException(why));
        return true;
    }

    private static Object invoke(Method m, Object target, Object... args) {
        return Reflective.invoke(m, target, args);
    }
}

package dev.effectful.runtime.tool;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;

/**
 * The return shapes of a tool that hands back a promise instead of its result: the work goes on
 * after the method returns. Known from the method's descriptor alone, so the weaver picks the async
 * path for a tool once, when its class loads, and a blocking tool's call never asks.
 *
 * <p>The first three are guarded end to end (intent before the work, outcome when it completes, a
 * repeat answered in the same shape). The others are refused for effectful kinds: a wrapper cannot
 * know when (or how often) their work happens, so guarding them would mean a journal that says ok
 * for work that has not run. READ tools of any shape run.
 */
public enum AsyncShape {

    /** A Kotlin {@code suspend fun}: on the JVM {@code Object m(args..., Continuation)}. */
    SUSPEND(null, "a Kotlin suspend function", null),
    /** {@code CompletableFuture<T>}. */
    COMPLETABLE_FUTURE("java/util/concurrent/CompletableFuture", "CompletableFuture", null),
    /** {@code CompletionStage<T>}: answered with a {@code CompletableFuture}. */
    COMPLETION_STAGE("java/util/concurrent/CompletionStage", "CompletionStage", null),
    /** Reactor's {@code Mono<T>}, reached reflectively in the application's own Reactor. */
    MONO("reactor/core/publisher/Mono", "Reactor Mono", null),

    FUTURE("java/util/concurrent/Future", "java.util.concurrent.Future",
            "a plain Future cannot say when its work is done without blocking; return CompletableFuture<T>"),
    FUTURE_TASK("java/util/concurrent/FutureTask", "FutureTask", "return CompletableFuture<T>"),
    SCHEDULED_FUTURE("java/util/concurrent/ScheduledFuture", "ScheduledFuture", "return CompletableFuture<T>"),
    FORK_JOIN_TASK("java/util/concurrent/ForkJoinTask", "ForkJoinTask", "return CompletableFuture<T>"),
    FLUX("reactor/core/publisher/Flux", "Reactor Flux",
            "a stream may apply any number of effects, each on subscription; return Mono<T> for one effect"),
    PUBLISHER("org/reactivestreams/Publisher", "Reactive Streams Publisher",
            "a publisher applies its effects on each subscription; return Mono<T> or CompletableFuture<T>"),
    JDK_FLOW_PUBLISHER("java/util/concurrent/Flow$Publisher", "java.util.concurrent.Flow.Publisher",
            "a publisher applies its effects on each subscription; return CompletableFuture<T>"),
    KOTLIN_FLOW("kotlinx/coroutines/flow/Flow", "Kotlin Flow",
            "a cold flow runs again on each collection; make the tool a suspend function"),
    KOTLIN_DEFERRED("kotlinx/coroutines/Deferred", "Kotlin Deferred",
            "its coroutine runs outside the call; make the tool a suspend function"),
    KOTLIN_JOB("kotlinx/coroutines/Job", "Kotlin Job", "its coroutine runs outside the call; make the tool a suspend function"),
    MUTINY_UNI("io/smallrye/mutiny/Uni", "Mutiny Uni", "return CompletableFuture<T> (uni.subscribeAsCompletionStage())"),
    MUTINY_MULTI("io/smallrye/mutiny/Multi", "Mutiny Multi", "a stream may apply any number of effects"),
    GUAVA_LISTENABLE_FUTURE("com/google/common/util/concurrent/ListenableFuture", "Guava ListenableFuture",
            "return CompletableFuture<T>"),
    RXJAVA_SINGLE("io/reactivex/rxjava3/core/Single", "RxJava Single", "return CompletableFuture<T>"),
    RXJAVA_MAYBE("io/reactivex/rxjava3/core/Maybe", "RxJava Maybe", "return CompletableFuture<T>"),
    RXJAVA_COMPLETABLE("io/reactivex/rxjava3/core/Completable", "RxJava Completable", "return CompletableFuture<T>"),
    RXJAVA_OBSERVABLE("io/reactivex/rxjava3/core/Observable", "RxJava Observable", "a stream may apply any number of effects"),
    RXJAVA_FLOWABLE("io/reactivex/rxjava3/core/Flowable", "RxJava Flowable", "a stream may apply any number of effects");

    /** The last parameter of a suspend function on the JVM. */
    public static final String CONTINUATION = "kotlin/coroutines/Continuation";
    private static final String CONTINUATION_DESCRIPTOR = "L" + CONTINUATION + ";)Ljava/lang/Object;";
    private static final AsyncShape[] VALUES = values();

    /** The declared return type's internal name; null for {@link #SUSPEND}, told by its last parameter. */
    private final String internalName;
    private final String label;
    /** Null for a guarded shape; else why it is refused and what to return instead. */
    private final String refusedBecause;

    AsyncShape(String internalName, String label, String refusedBecause) {
        this.internalName = internalName;
        this.label = label;
        this.refusedBecause = refusedBecause;
    }

    /** The shape a method descriptor ({@code (params)ret}) declares; null for an ordinary blocking tool. */
    public static AsyncShape ofDescriptor(String descriptor) {
        if (descriptor.endsWith(CONTINUATION_DESCRIPTOR)) {
            return SUSPEND;
        }
        int close = descriptor.lastIndexOf(')');
        if (descriptor.charAt(close + 1) != 'L') {
            return null;
        }
        String returned = descriptor.substring(close + 2, descriptor.length() - 1);
        for (AsyncShape s : VALUES) {
            if (returned.equals(s.internalName)) {
                return s;
            }
        }
        return null;
    }

    /** The shape of {@code m}; null for an ordinary blocking tool. */
    public static AsyncShape of(Method m) {
        return ofDescriptor(ToolMethods.descriptor(m));
    }

    /** True when an effectful tool of this shape is refused at every call. */
    public boolean refused() {
        return refusedBecause != null;
    }

    /** How the journal and the log name the shape. */
    public String label() {
        return label;
    }

    /** The refusal every call of an effectful tool of this shape gets, naming the method and the fix. */
    public String refusal(String method) {
        return "effectful cannot guard " + method + ": it returns " + label + " (" + refusedBecause + "); every call of"
                + " this effectful tool is refused and its body does not run; READ tools of this shape run";
    }

    /**
     * The type of the value the work completes with: {@code T} of {@code CompletableFuture<T>} or
     * {@code Mono<T>}, and for a suspend function the type argument of its {@code Continuation}
     * ({@code Continuation<? super T>}). {@code Object} when the signature does not say.
     */
    public Type valueType(Method m) {
        Type declared;
        if (this == SUSPEND) {
            Type[] ps = m.getGenericParameterTypes();
            declared = ps.length == 0 ? Object.class : ps[ps.length - 1];
        } else {
            declared = m.getGenericReturnType();
        }
        if (declared instanceof ParameterizedType p && p.getActualTypeArguments().length == 1) {
            Type arg = p.getActualTypeArguments()[0];
            if (arg instanceof WildcardType w) {
                return w.getLowerBounds().length > 0 ? w.getLowerBounds()[0] : w.getUpperBounds()[0];
            }
            return arg;
        }
        return Object.class;
    }

    /** How many of the JVM method's parameters the caller passed: all but a suspend function's continuation. */
    public int callerParameters(Method m) {
        return this == SUSPEND ? m.getParameterCount() - 1 : m.getParameterCount();
    }
}

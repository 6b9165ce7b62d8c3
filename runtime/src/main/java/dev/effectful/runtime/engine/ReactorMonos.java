package dev.effectful.runtime.engine;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;

/**
 * Reactor's {@code Mono}, reached reflectively in the application's own Reactor: the agent never
 * bundles Reactor, and the four static and instance methods used here are Reactor's stable API.
 * Resolved once per {@code Mono} class (the tool's declared return type).
 */
final class ReactorMonos {

    private static final ClassValue<ReactorMonos> BY_MONO_CLASS = new ClassValue<>() {
        @Override
        protected ReactorMonos computeValue(Class<?> mono) {
            try {
                return new ReactorMonos(mono);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                throw new IllegalStateException("Reactor's Mono cannot be reached (" + e + ")", e);
            }
        }
    };

    private final Method toFuture;
    private final Method just;
    private final Method error;
    private final Method fromFuture;

    private ReactorMonos(Class<?> mono) throws ReflectiveOperationException {
        toFuture = mono.getMethod("toFuture");
        just = mono.getMethod("just", Object.class);
        error = mono.getMethod("error", Throwable.class);
        fromFuture = mono.getMethod("fromFuture", CompletableFuture.class);
    }

    /** Reactor as the tool's declared {@code Mono} return type reaches it. */
    static ReactorMonos of(Class<?> declaredMono) {
        return BY_MONO_CLASS.get(declaredMono);
    }

    /** Subscribes to {@code mono} now: its work is the call's, started under the journaled intent. */
    @SuppressWarnings("unchecked")
    CompletableFuture<Object> subscribe(Object mono) {
        return (CompletableFuture<Object>) invoke(toFuture, mono);
    }

    /** A Mono of {@code value}: empty for null, as Reactor's own {@code justOrEmpty}. */
    Object of(Object value, Throwable failed) {
        if (failed != null) {
            return invoke(error, null, failed);
        }
        return value == null ? fromFuture(CompletableFuture.completedFuture(null)) : invoke(just, null, value);
    }

    Object fromFuture(CompletableFuture<Object> future) {
        return invoke(fromFuture, null, future);
    }

    private static Object invoke(Method m, Object target, Object... args) {
        return Reflective.invoke(m, target, args);
    }
}

package dev.effectful.runtime.engine;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * A reflective call into the application's own copy of a library (Kotlin's coroutines, Reactor), which
 * the agent reaches without bundling: what the method throws comes out as itself, unwrapped.
 */
final class Reflective {

    private Reflective() {
    }

    static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}

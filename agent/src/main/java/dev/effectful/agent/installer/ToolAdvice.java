package dev.effectful.agent.installer;

import dev.effectful.agent.bridge.Bridge;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Inlined into every {@code @EffectfulTool} method. It only talks to the bootstrap {@link Bridge}
 * (JDK types), passes its origin as constants (no reflective lookup per call), and lets the
 * runtime decide everything: whether the body runs, what is returned, what is thrown.
 *
 * <p>A tool whose declared return type is a promise (a future, a Mono, a Kotlin suspend function;
 * {@code AsyncShape}) takes the bridge's async entry and exit. Which one is decided when the class is
 * woven and bound into the code as the constant {@link Async} ({@link ToolWeaving}), so a blocking
 * tool's call never asks which it is at run time.
 */
public final class ToolAdvice {

    private ToolAdvice() {
    }

    /** Bound to a constant at weaving: whether the tool's return type is a promise. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    @interface Async {
    }

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static boolean enter(@Advice.Origin Class<?> type,
                                @Advice.Origin("#m#d") String method,
                                @Advice.This(optional = true) Object self,
                                @Advice.AllArguments(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object[] args,
                                @Async boolean async,
                                @Advice.Local("effectfulCall") Object call) {
        call = async ? Bridge.enterAsync(type, method, self, args) : Bridge.enter(type, method, self, args);
        if (call != null) {
            // a suspend function's body gets the guarded continuation in place of the caller's
            args = Bridge.arguments(call, args);
        }
        return Bridge.skipBody(call);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Local("effectfulCall") Object call,
                            @Async boolean async,
                            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
                            @Advice.Thrown(readOnly = false) Throwable thrown) {
        if (call != null) {
            Object value = async ? Bridge.exitValueAsync(call, returned, thrown) : Bridge.exitValue(call, returned, thrown);
            // thrown first: if unboxing the value failed, the caller must still see the outcome
            thrown = Bridge.exitThrown(call);
            returned = value;
        }
    }
}

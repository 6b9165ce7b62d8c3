package dev.effectful.agent.installer;

import dev.effectful.agent.bridge.Bridge;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Inlined into every {@code @EffectfulTool} method. It only talks to the bootstrap {@link Bridge}
 * (JDK types), passes its origin as constants (no reflective lookup per call), and lets the
 * runtime decide everything: whether the body runs, what is returned, what is thrown.
 */
public final class ToolAdvice {

    private ToolAdvice() {
    }

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static boolean enter(@Advice.Origin Class<?> type,
                                @Advice.Origin("#m#d") String method,
                                @Advice.This(optional = true) Object self,
                                @Advice.AllArguments(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object[] args,
                                @Advice.Local("effectfulCall") Object call) {
        call = Bridge.enter(type, method, self, args);
        if (call != null) {
            args = Bridge.arguments(call, args);
        }
        return Bridge.skipBody(call);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Local("effectfulCall") Object call,
                            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
                            @Advice.Thrown(readOnly = false) Throwable thrown) {
        if (call != null) {
            Object value = Bridge.exitValue(call, returned, thrown);
            // thrown first: if unboxing the value failed, the caller must still see the outcome
            thrown = Bridge.exitThrown(call);
            returned = value;
        }
    }
}

package dev.effectful.agent.installer;

import dev.effectful.agent.bridge.Bridge;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * {@link ToolAdvice} for a tool whose declared return type is a promise (a future, a Mono, a Kotlin
 * suspend function; {@code AsyncShape}): the same code through the bridge's async entry and exit,
 * chosen when the class is woven so a blocking tool's call never asks which it is.
 */
public final class AsyncToolAdvice {

    private AsyncToolAdvice() {
    }

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static boolean enter(@Advice.Origin Class<?> type,
                                @Advice.Origin("#m#d") String method,
                                @Advice.This(optional = true) Object self,
                                @Advice.AllArguments(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object[] args,
                                @Advice.Local("effectfulCall") Object call) {
        call = Bridge.enterAsync(type, method, self, args);
        if (call != null) {
            // a suspend function's body gets the guarded continuation in place of the caller's
            args = Bridge.arguments(call, args);
        }
        return Bridge.skipBody(call);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Local("effectfulCall") Object call,
                            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
                            @Advice.Thrown(readOnly = false) Throwable thrown) {
        if (call != null) {
            Object value = Bridge.exitValueAsync(call, returned, thrown);
            thrown = Bridge.exitThrown(call);
            returned = value;
        }
    }
}

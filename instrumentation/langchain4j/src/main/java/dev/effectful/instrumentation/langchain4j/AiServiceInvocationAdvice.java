package dev.effectful.instrumentation.langchain4j;

import dev.effectful.agent.bridge.AnnotatedArguments;
import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

import java.lang.reflect.Method;

/**
 * Inlined into LangChain4j's AI-service {@code InvocationHandler.invoke(proxy, method, args)}: opens the
 * invocation's task before LangChain4j runs anything, closes it when the method returns or throws.
 * Names only JDK types and the bridge. {@link Frameworks#openTask} opens nothing when a task is already
 * current (an explicit {@code Task.open} wins, and a nested AI service joins its caller's task).
 *
 * <p>Skipped: {@code Object} methods, default methods (their body calls the abstract methods, which
 * come back here with their own annotations) and LangChain4j's {@code ChatMemoryAccess} methods,
 * none of which call a tool.
 */
final class AiServiceInvocationAdvice {

    private AiServiceInvocationAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.Argument(1) Method method, @Advice.Argument(2) Object[] args) {
        if (method == null || method.isDefault() || method.getDeclaringClass() == Object.class
                || method.getDeclaringClass().getName().equals("dev.langchain4j.service.memory.ChatMemoryAccess")) {
            return null;
        }
        Object memoryId = AnnotatedArguments.find(method, args, "dev.langchain4j.service.MemoryId");
        Object userName = AnnotatedArguments.find(method, args, "dev.langchain4j.service.UserName");
        return Frameworks.openTask("langchain4j", memoryId == null ? null : String.valueOf(memoryId),
                userName == null ? null : String.valueOf(userName));
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.closeTask(token);
    }
}

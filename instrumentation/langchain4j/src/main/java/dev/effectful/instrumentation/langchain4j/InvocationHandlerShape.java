package dev.effectful.instrumentation.langchain4j;

import dev.effectful.core.log.AgentLog;
import dev.effectful.instrumentation.api.ForwardingVisitorWrapper;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Applies {@link AiServiceInvocationAdvice} only to a class that still has the shape it was written
 * for: an {@link InvocationHandler} declaring {@code Object invoke(Object, Method, Object[])}. The
 * anonymous class's name ({@code DefaultAiServices$1}) is an accident of the source; in a LangChain4j
 * version where it names something else, the class loads unchanged and a debug line says so.
 */
final class InvocationHandlerShape extends ForwardingVisitorWrapper {

    private static final ElementMatcher.Junction<MethodDescription> INVOKE = named("invoke")
            .and(takesArguments(Object.class, Method.class, Object[].class))
            .and(returns(Object.class))
            .and(not(isAbstract()));

    InvocationHandlerShape() {
        super(Advice.to(AiServiceInvocationAdvice.class).on(INVOKE));
    }

    @Override
    protected boolean fits(TypeDescription type, FieldList<FieldDescription.InDefinedShape> fields) {
        if (!fits(type)) {
            AgentLog.debug("effectful: " + type.getName() + " is not the AI-service InvocationHandler this LangChain4j"
                    + " instrumentation knows; AI-service invocations open no task (use Task.open around the call)");
            return false;
        }
        return true;
    }

    /** Whether {@code type} is the proxy's invocation handler with its {@code invoke} declared. */
    static boolean fits(TypeDescription type) {
        return type.isAssignableTo(InvocationHandler.class)
                && !type.getDeclaredMethods().filter(INVOKE).isEmpty();
    }
}

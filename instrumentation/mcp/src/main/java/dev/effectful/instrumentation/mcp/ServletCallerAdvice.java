package dev.effectful.instrumentation.mcp;

import dev.effectful.agent.bridge.Frameworks;
import jakarta.servlet.http.HttpServletRequest;
import net.bytebuddy.asm.Advice;

import java.security.Principal;

/**
 * Inlined into the SDK's servlet transports' {@code doPost}: the request's authenticated principal
 * (whatever authenticated it: the container, a filter) and peer address are the caller of the tool
 * requests it carries, for as long as {@code doPost} runs on this thread.
 */
final class ServletCallerAdvice {

    private ServletCallerAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.Argument(0) Object argument) {
        // Object, not HttpServletRequest: the agent's loader reads this signature and cannot see the servlet API
        HttpServletRequest request = (HttpServletRequest) argument;
        Principal p = request.getUserPrincipal();
        return Frameworks.transportCaller("mcp", "http", p == null ? null : p.getName(), request.getRemoteAddr());
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.transportCallerDone(token);
    }
}

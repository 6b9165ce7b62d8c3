package dev.effectful.instrumentation.mcp;

import dev.effectful.agent.bridge.Frameworks;
import jakarta.servlet.http.HttpServletRequest;
import net.bytebuddy.asm.Advice;

import java.security.Principal;

/**
 * Inlined into the SDK's servlet transports' {@code doPost}: the request's authenticated principal
 * (whatever authenticated it: the container, a filter) and peer address are the caller of the tool
 * requests it carries, for as long as {@code doPost} runs on this thread. A request carrying
 * {@code Forwarded}, {@code X-Forwarded-*} or {@code X-Real-IP} came through a proxy: its peer address
 * is the proxy's, so it is never taken as a loopback caller.
 */
final class ServletCallerAdvice {

    private ServletCallerAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.Argument(0) Object argument) {
        // Object, not HttpServletRequest: the agent's loader reads this signature and cannot see the servlet API
        HttpServletRequest request = (HttpServletRequest) argument;
        Principal p = request.getUserPrincipal();
        String forwardedBy = null;
        // a reverse proxy on this host makes every client's peer address loopback; the header it adds says
        // the request came from elsewhere, so such a request is never the loopback caller trust_task=loopback means
        java.util.Enumeration<String> names = request.getHeaderNames();
        while (names != null && names.hasMoreElements() && forwardedBy == null) {
            String name = names.nextElement();
            String lower = name == null ? "" : name.toLowerCase(java.util.Locale.ROOT);
            if (lower.equals("forwarded") || lower.startsWith("x-forwarded-") || lower.equals("x-real-ip")) {
                forwardedBy = name;
            }
        }
        if (forwardedBy != null) {
            return Frameworks.transportCaller("mcp", "http forwarded by a proxy (" + forwardedBy + " header)",
                    p == null ? null : p.getName(), null);
        }
        return Frameworks.transportCaller("mcp", "http", p == null ? null : p.getName(), request.getRemoteAddr());
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.transportCallerDone(token);
    }
}

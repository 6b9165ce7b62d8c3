package dev.effectful.instrumentation.mcp;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into the stdio server transport's inbound loop (the lambda its single inbound thread runs for
 * the life of the session): every request read there comes from the process that started this server,
 * the most local caller there is.
 */
final class StdioCallerAdvice {

    private StdioCallerAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter() {
        Frameworks.transportCaller("mcp", "stdio", null, null);
    }
}

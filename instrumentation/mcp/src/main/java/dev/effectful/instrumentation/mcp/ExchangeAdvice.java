package dev.effectful.instrumentation.mcp;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

/**
 * Who calls, carried from the transport to the handler. The server makes an exchange for each request
 * on the thread the transport announced the caller on ({@link ServletCallerAdvice}, {@link
 * StdioCallerAdvice}); the exchange is tagged with it, and the handler, often on another thread, is
 * handed that exchange.
 */
final class ExchangeAdvice {

    private ExchangeAdvice() {
    }

    /** {@code McpAsyncServerExchange(...)}: made for a request, on the transport's thread. */
    static final class Async {
        private Async() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object exchange) {
            Frameworks.bindTransportCaller(exchange);
        }
    }

    /** {@code McpSyncServerExchange(McpAsyncServerExchange)}: the same caller as the exchange it wraps. */
    static final class Sync {
        private Sync() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object exchange, @Advice.Argument(0) Object wrapped) {
            Frameworks.sameTransportCaller(wrapped, exchange);
        }
    }
}

package dev.effectful.instrumentation.mcp;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

import java.util.function.BiFunction;

/**
 * Inlined into the constructors of the SDK's tool specifications ({@code Sync/AsyncToolSpecification},
 * stateful and stateless): the call handler is wrapped, on the bootstrap path, so that every call runs
 * in the task its request's entry names, bound on the thread that runs the handler. The SDK's own
 * adapters (a synchronous tool made asynchronous) are left alone: the handler they call is wrapped.
 */
final class ToolHandlerAdvice {

    private ToolHandlerAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    @SuppressWarnings({"rawtypes", "unchecked"})
    static void enter(@Advice.Argument(value = 1, readOnly = false) BiFunction handler) {
        handler = Frameworks.remoteTaskHandler("mcp", handler, "io.modelcontextprotocol.");
    }
}

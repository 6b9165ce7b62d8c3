package dev.effectful.instrumentation.springai;

import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

/**
 * Spring AI's {@code ChatClient}: a blocking call ({@code .call().content()}, {@code .entity(..)},
 * {@code .chatResponse()}, ...) made outside any task runs in a task, so the tools the model calls
 * during it share one task and a rephrased retry of the same act is caught.
 *
 * <p>The point advised is {@code DefaultChatClient$DefaultCallResponseSpec.doGetObservableChatClientResponse(
 * ChatClientRequest, ...)}: every blocking response method of Spring AI 1.1 and 2.0 ends there, the
 * advisor chain (and with it, in 2.0, the tool-calling loop; in 1.1 the model's own loop) runs inside
 * it on the caller's thread, and its first argument carries the advisor parameters as its context.
 * In 2.0 a one-argument form delegates to a two-argument one: both are advised, and the inner one
 * finds the task already current and opens nothing. A Spring AI without that method is left as it is.
 *
 * <p>Streaming ({@code .stream()}) is not advised: its work happens when the {@code Flux} is
 * subscribed, on Reactor's threads, after the method that builds it has returned.
 */
public final class SpringAiInstrumentation extends NamedInstrumentation {

    static final String CALL_RESPONSE_SPEC = "org/springframework/ai/chat/client/DefaultChatClient$DefaultCallResponseSpec";

    /**
     * Built when asked, never in a static field: the agent instantiates every instrumentation at premain,
     * and a static matcher there loaded Byte Buddy on the application's start path (about 20 ms).
     */
    private static ElementMatcher<MethodDescription> blockingCall() {
        return named("doGetObservableChatClientResponse")
                .and(takesArgument(0, named("org.springframework.ai.chat.client.ChatClientRequest")))
                .and(not(isAbstract()));
    }

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public SpringAiInstrumentation() {
        super("spring-ai", CALL_RESPONSE_SPEC);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return inlinedIn(internalName, ChatClientCallAdvice.NAME, blockingCall());
    }
}

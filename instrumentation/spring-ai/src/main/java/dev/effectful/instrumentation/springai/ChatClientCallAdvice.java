package dev.effectful.instrumentation.springai;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.memory.ChatMemory;

import java.util.Map;

/**
 * Inlined into {@code DefaultCallResponseSpec.doGetObservableChatClientResponse}: opens a task for
 * the call when none is current, named by the conversation id of the advisor parameters
 * ({@link ChatMemory#CONVERSATION_ID}), else a task of the call's own; closes it when the call ends,
 * however it ends. Parameters are typed {@code Object} so that Byte Buddy never has to resolve a
 * Spring AI type in the agent's loader; the cast is resolved in Spring AI's own loader.
 *
 * <p>Every throwable is suppressed: a Spring AI whose request has another shape (no {@code context()})
 * makes the enter advice fail quietly, nothing is opened, and the call runs as without the agent.
 */
final class ChatClientCallAdvice {

    /** The binary name, for describing this class from its class file. */
    static final String NAME = "dev.effectful.instrumentation.springai.ChatClientCallAdvice";

    private ChatClientCallAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.Argument(0) Object request) {
        Object conversation = null;
        if (request instanceof ChatClientRequest) {
            Map<String, Object> context = ((ChatClientRequest) request).context();
            if (context != null) {
                conversation = context.get(ChatMemory.CONVERSATION_ID);
            }
        }
        return Frameworks.openTask("spring-ai", conversation == null ? null : conversation.toString(), null);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.closeTask(token);
    }
}

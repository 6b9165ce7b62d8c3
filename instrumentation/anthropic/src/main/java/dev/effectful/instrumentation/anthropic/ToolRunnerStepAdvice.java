package dev.effectful.instrumentation.anthropic;

import com.anthropic.helpers.BetaToolRunner;
import com.anthropic.models.beta.messages.BetaMetadata;
import com.anthropic.models.beta.messages.MessageCreateParams;
import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

import java.util.Optional;

/**
 * Inlined into {@code BetaToolRunner.generateToolResponse}, where one turn's tool calls run: enters the
 * runner's task (opened at its first turn, the same one at every later turn) when the caller has none,
 * the request's {@code metadata.user_id} as the actor; leaves it when the turn's tools are done,
 * however they end. The SDK's types resolve in the SDK's own loader once inlined.
 *
 * <p>Every throwable is suppressed: an SDK whose request has another shape makes the enter advice fail
 * quietly, nothing is entered, and the tools run as without the agent.
 */
final class ToolRunnerStepAdvice {

    /** The binary name, for describing this class from its class file. */
    static final String NAME = "dev.effectful.instrumentation.anthropic.ToolRunnerStepAdvice";

    private ToolRunnerStepAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.This Object runner) {
        String actor = null;
        if (runner instanceof BetaToolRunner) {
            MessageCreateParams params = ((BetaToolRunner) runner).params();
            if (params != null) {
                Optional<BetaMetadata> metadata = params.metadata();
                if (metadata.isPresent()) {
                    actor = metadata.get().userId().orElse(null);
                }
            }
        }
        return Frameworks.enterOwnedTask("anthropic", runner, actor);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.exitOwnedTask(token);
    }
}

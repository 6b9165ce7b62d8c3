package dev.effectful.instrumentation.anthropic;

import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;


/**
 * The Anthropic Java SDK's {@code BetaToolRunner}: its iteration (a lazy sequence the application walks
 * with {@code for (BetaMessage m : runner)}, blocking, on its own thread) runs in one task, so a
 * rephrased retry of a tool call whose answer was lost is caught anywhere in the loop. The task is one
 * of the runner's own ({@code anthropic-<uuid>}): the SDK names no conversation that outlives the
 * process, so a stable id across a restart is the application's {@code Task.open} around the loop,
 * which always wins. The actor is the request's {@code metadata.user_id} when set.
 *
 * <p>The point advised is the runner's private {@code generateToolResponse(BetaMessageParam)}, where
 * every turn's tool calls run, one after another, on the iterating thread. An SDK without that method
 * is left as it is: its tool calls are then each their own task. The async client has no runner.
 */
public final class AnthropicInstrumentation extends NamedInstrumentation {

    static final String RUNNER = "com/anthropic/helpers/BetaToolRunner";

    /** Built when asked, never in a static field: the agent instantiates every instrumentation at premain. */
    private static ElementMatcher<MethodDescription> toolTurn() {
        return concreteMethod("generateToolResponse", 1, 0, "com.anthropic.models.beta.messages.BetaMessageParam");
    }

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public AnthropicInstrumentation() {
        super("anthropic", RUNNER);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return inlinedIn(internalName, ToolRunnerStepAdvice.NAME, toolTurn());
    }
}

package dev.effectful.instrumentation.koog;

import dev.effectful.instrumentation.api.ForwardingVisitorWrapper;
import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;

/**
 * JetBrains Koog ({@code ai.koog:koog-agents}): every tool call of an agent run runs in the task of the
 * run's id. Koog takes the run id from the session id given to {@code agent.run(input, sessionId)}, and
 * makes a new one for a run without it; only a given session id is the same after a restart.
 *
 * <p>Where: {@code ContextualAgentEnvironment.executeTool(Message.Tool.Call, Continuation)} (0.6 to at
 * least 0.7), the environment Koog's graph, functional and planner agents wrap around their tools, which
 * holds the run's {@code AIAgentContext} in its field {@code context}. A version where that class has
 * another shape is left as it is ({@link #advice}): each tool call is then its own task.
 */
public final class KoogInstrumentation extends NamedInstrumentation {

    static final String ENVIRONMENT = "ai/koog/agents/core/environment/ContextualAgentEnvironment";
    static final String CONTEXT = "ai.koog.agents.core.agent.context.AIAgentContext";

    /**
     * Built when asked, never in a static field: the agent instantiates every instrumentation at
     * premain, and a static matcher would load Byte Buddy on every application's start path.
     */
    static ElementMatcher<MethodDescription> executeTool() {
        return concreteMethod("executeTool", 2, 1, "kotlin.coroutines.Continuation");
    }

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public KoogInstrumentation() {
        super("koog", ENVIRONMENT);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return inlinedIn(internalName, ToolCallAdvice.NAME, executeTool()).stream()
                .<AsmVisitorWrapper>map(WithContextField::new).toList();
    }

    /**
     * The advice only where the class still declares the field it reads: {@code @FieldValue} on a missing
     * field would fail the whole class's transformation. Otherwise the class loads unchanged.
     */
    private static final class WithContextField extends ForwardingVisitorWrapper {

        WithContextField(AsmVisitorWrapper advice) {
            super(advice);
        }

        @Override
        protected boolean fits(TypeDescription type, FieldList<FieldDescription.InDefinedShape> fields) {
            return !fields.filter(named("context")).isEmpty()
                    && fields.filter(named("context")).getOnly().getType().asErasure().getName().equals(CONTEXT);
        }
    }
}

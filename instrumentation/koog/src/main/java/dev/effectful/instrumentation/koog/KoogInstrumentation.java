package dev.effectful.instrumentation.koog;

import dev.effectful.instrumentation.api.ForwardingVisitorWrapper;
import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

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
        return named("executeTool").and(takesArguments(2)).and(takesArgument(1, named("kotlin.coroutines.Continuation")))
                .and(not(isAbstract()));
    }

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public KoogInstrumentation() {
        super("koog", ENVIRONMENT);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        if (!ENVIRONMENT.equals(internalName)) {
            return List.of();
        }
        AsmVisitorWrapper advice = inlined(ToolCallAdvice.NAME, executeTool());
        return List.of(new WithContextField(advice));
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
        public ClassVisitor wrap(TypeDescription type, ClassVisitor visitor, Implementation.Context context, TypePool pool,
                                 FieldList<FieldDescription.InDefinedShape> fields, MethodList<?> methods,
                                 int writerFlags, int readerFlags) {
            boolean fits = !fields.filter(named("context")).isEmpty()
                    && fields.filter(named("context")).getOnly().getType().asErasure().getName().equals(CONTEXT);
            return fits ? super.wrap(type, visitor, context, pool, fields, methods, writerFlags, readerFlags) : visitor;
        }
    }
}

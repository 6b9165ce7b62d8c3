package dev.effectful.agent.installer;

import net.bytebuddy.asm.Advice;
import dev.effectful.runtime.tool.AsyncShape;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.enumeration.EnumerationDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isAnnotatedWith;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * Inlines {@link ToolAdvice} into every {@code @EffectfulTool} method of a class, and into every
 * method that implements or overrides one declared by a supertype (annotations on methods are not
 * inherited by Java, but the intent is). javac copies method annotations onto bridge methods; those
 * are left alone so a call is guarded once.
 */
final class ToolWeaving {

    static final String TOOL_ANNOTATION = "dev.effectful.EffectfulTool";

    private static final ElementMatcher.Junction<MethodDescription> TOOLS = isMethod()
            .and(not(isBridge())).and(not(isAbstract())).and(not(isNative()))
            .and(isAnnotatedWith(named(TOOL_ANNOTATION)).or(new InheritedToolMatcher()));

    private final ClassRewriter rewriter;
    /** Tools returning a promise take the bridge's async entry: decided here, once per method, not per call. */
    private static final ElementMatcher.Junction<MethodDescription> ASYNC =
            new ElementMatcher.Junction.AbstractBase<>() {
                @Override
                public boolean matches(MethodDescription m) {
                    return AsyncShape.ofDescriptor(m.getDescriptor()) != null;
                }
            };

    private final AsmVisitorWrapper advice = adviceFor(false).on(TOOLS.and(not(ASYNC)));
    private final AsmVisitorWrapper asyncAdvice = adviceFor(true).on(TOOLS.and(ASYNC));

    ToolWeaving(ToolSupertypes supertypes) {
        this.rewriter = new ClassRewriter(supertypes);
    }

    /** The rewritten class, or null when it declares no tool (it only mentions the annotation). */
    byte[] weave(ClassLoader loader, String internalName, byte[] bytes) {
        ClassRewriter.Target target = rewriter.describe(loader, internalName, bytes);
        MethodList<MethodDescription.InDefinedShape> tools = target.type().getDeclaredMethods().filter(TOOLS);
        if (tools.isEmpty()) {
            return null;
        }
        boolean anyAsync = false;
        for (MethodDescription tool : tools) {
            JsonWarmUp.toolWoven(tool.getDescriptor());
            if (ASYNC.matches(tool)) {
                anyAsync = true;
                AsyncWeaving.woven(internalName, tool.getName(), tool.getDescriptor(), kindOf(tool));
            }
        }
        return rewriter.rewrite(target, anyAsync ? List.of(advice, asyncAdvice) : List.of(advice));
    }

    /** {@link ToolAdvice} with its {@link ToolAdvice.Async} parameter bound to {@code async}. */
    private static Advice adviceFor(boolean async) {
        return Advice.withCustomMapping().bind(ToolAdvice.Async.class, async).to(ToolAdvice.class);
    }

    /** The kind its own annotation gives; null when it inherits the annotation. */
    private static String kindOf(MethodDescription tool) {
        for (AnnotationDescription a : tool.getDeclaredAnnotations()) {
            if (a.getAnnotationType().getName().equals(TOOL_ANNOTATION)) {
                Object kind = a.getValue("kind").resolve();
                return kind instanceof EnumerationDescription e ? e.getValue() : null;
            }
        }
        return null;
    }
}

package dev.effectful.agent.installer;

import dev.effectful.EffectfulTool;
import dev.effectful.core.journal.JournalProblem;
import dev.effectful.core.journal.Kind;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.security.CodeSource;
import java.util.Optional;

/**
 * A tool class whose loader defines its own copy of the API package ({@code dev.effectful}) instead
 * of delegating it to its parent: a child-first (parent-last) loader with {@code effectful-annotations}
 * among its own jars. Its {@code @EffectfulTool}, {@code Task} and {@code Outcome} are then other
 * classes than the agent's, so the agent cannot read the tool's declaration or see its task. No
 * retry changes that, so the refusal is permanent, and it names the jar the copy came from and the fix.
 *
 * @param loader   the tool class's loader, as the JVM prints it
 * @param location where that loader's copy of the API was read from
 */
record ForeignApi(String loader, String location) {

    /** The foreign copy {@code type}'s loader sees, or empty when it sees the agent's API (or none). */
    static Optional<ForeignApi> of(Class<?> type) {
        ClassLoader l = type.getClassLoader();
        if (l == null) {
            return Optional.empty();
        }
        Class<?> theirs;
        try {
            theirs = Class.forName(EffectfulTool.class.getName(), false, l);
        } catch (ClassNotFoundException | LinkageError none) {
            return Optional.empty();
        }
        if (theirs == EffectfulTool.class) {
            return Optional.empty();
        }
        CodeSource source = theirs.getProtectionDomain() == null ? null : theirs.getProtectionDomain().getCodeSource();
        String where = source == null || source.getLocation() == null ? "an unknown location" : source.getLocation().toString();
        return Optional.of(new ForeignApi(String.valueOf(l), where));
    }

    /** Why every effectful call of such a class is refused, and what to change. */
    JournalProblem problem(Class<?> type) {
        return new JournalProblem(JournalProblem.Cause.MISCONFIGURED, "effectful cannot guard " + type.getName()
                + ": its class loader " + loader + " defines its own copy of the effectful API from " + location
                + ", so its @EffectfulTool and Task are not the agent's; fix: make that loader delegate the package"
                + " dev.effectful to its parent (remove effectful-annotations from its own jars, or list dev.effectful."
                + " among its parent-first packages)");
    }

    /** True when the method's own annotation (of the foreign copy) declares a READ: it runs, as without a journal. */
    static boolean isRead(Class<?> type, String methodAndDescriptor) {
        try {
            for (Method m : type.getDeclaredMethods()) {
                if (!methodAndDescriptor.startsWith(m.getName() + "(")) {
                    continue;
                }
                for (Annotation a : m.getDeclaredAnnotations()) {
                    if (a.annotationType().getName().equals(ToolWeaving.TOOL_ANNOTATION)) {
                        Method kind = a.annotationType().getMethod("kind");
                        kind.setAccessible(true);
                        return Kind.alwaysRuns(String.valueOf(kind.invoke(a)));
                    }
                }
            }
        } catch (ReflectiveOperationException | RuntimeException unreadable) {
            // not knowing the kind means not a READ: refused
        }
        return false;
    }
}

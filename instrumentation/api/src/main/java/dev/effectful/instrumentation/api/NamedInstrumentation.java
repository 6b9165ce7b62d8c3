package dev.effectful.instrumentation.api;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

import java.util.List;
import java.util.Set;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * A {@link LibraryInstrumentation} whose name and rewritten classes are fixed when it is made, so each
 * library states them once, in its constructor; and the one way an instrumentation's advice is described
 * for inlining ({@link #inlined}, {@link #inlinedIn}) and its advised methods matched ({@link #concreteMethod}).
 */
public abstract class NamedInstrumentation implements LibraryInstrumentation {

    private final String library;
    private final Set<String> classes;

    /**
     * @param library the short name for logs and errors ({@link #library()})
     * @param classes the internal names of the classes rewritten ({@link #classes()})
     */
    protected NamedInstrumentation(String library, String... classes) {
        this.library = library;
        this.classes = Set.of(classes);
    }

    @Override
    public final String library() {
        return library;
    }

    @Override
    public final Set<String> classes() {
        return classes;
    }

    /**
     * The advice class {@code adviceName} applied to {@code methods}, described from its class file in this
     * instrumentation's jar, not loaded: the advice names the library's types, which the agent's own loader
     * cannot resolve (they resolve in the application's, once inlined). Called only when a class of
     * {@link #classes()} loads, so nothing of Byte Buddy runs at premain.
     */
    protected final AsmVisitorWrapper inlined(String adviceName, ElementMatcher<? super MethodDescription> methods) {
        ClassFileLocator own = ClassFileLocator.ForClassLoader.of(getClass().getClassLoader());
        return Advice.to(TypePool.Default.of(own).describe(adviceName).resolve(), own).on(methods);
    }

    /**
     * The {@link #advice} of an instrumentation with one advice class: {@link #inlined} for a class of
     * {@link #classes()}, nothing for any other name.
     */
    protected final List<AsmVisitorWrapper> inlinedIn(String internalName, String adviceName,
                                                     ElementMatcher<? super MethodDescription> methods) {
        return classes.contains(internalName) ? List.of(inlined(adviceName, methods)) : List.of();
    }

    /**
     * A method {@code name} with a body, of {@code arguments} parameters, whose parameter {@code index} is
     * {@code typeName}: the shape an advised library method is matched by, so a library version where it
     * changed is left as it is. Called when a class loads, never for a static field: a matcher made at
     * premain would load Byte Buddy on every application's start path.
     */
    protected static ElementMatcher.Junction<MethodDescription> concreteMethod(String name, int arguments, int index,
                                                                              String typeName) {
        return named(name).and(takesArguments(arguments)).and(takesArgument(index, named(typeName)))
                .and(not(isAbstract()));
    }
}

package dev.effectful.instrumentation.api;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

import java.util.Set;

/**
 * A {@link LibraryInstrumentation} whose name and rewritten classes are fixed when it is made, so each
 * library states them once, in its constructor; and the one way an instrumentation's advice is described
 * for inlining ({@link #inlined}).
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
}

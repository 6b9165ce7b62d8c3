package dev.effectful.agent.installer;

import dev.effectful.agent.integration.Instrumentations;
import net.bytebuddy.asm.AsmVisitorWrapper;

import java.util.List;

/**
 * Applies a library instrumentation's advice ({@code instrumentation/<library>}) to one of the
 * library's classes. Built on first use, like the other weavers: an application without any of
 * those libraries never loads it.
 */
final class LibraryWeaving {

    private final ClassRewriter rewriter = new ClassRewriter(Weavers.supertypes());

    /** The rewritten class, or null when no instrumentation has advice for it. */
    byte[] weave(Instrumentations instrumentations, ClassLoader loader, String internalName, byte[] bytes) {
        List<AsmVisitorWrapper> advice = instrumentations.advice(internalName);
        if (advice.isEmpty()) {
            return null;
        }
        return rewriter.rewrite(rewriter.describe(loader, internalName, bytes), advice);
    }
}

package dev.effectful.agent.installer;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.TypeResolutionStrategy;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.InstrumentedType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;

import java.util.List;

/**
 * Applies advice to one class file, as Byte Buddy's AgentBuilder would with
 * {@code disableClassFormatChanges()}: no member is added, so the same bytes serve a first load
 * and a retransformation. Used directly (not through AgentBuilder) so that nothing of Byte Buddy
 * is loaded until a class actually needs rewriting.
 */
final class ClassRewriter {

    private final ByteBuddy byteBuddy = new ByteBuddy()
            .with(TypeValidation.DISABLED)
            .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
            .with(InstrumentedType.Factory.Default.FROZEN)
            .with(Implementation.Context.Disabled.Factory.INSTANCE);

    /** The class as described from its own bytes; types it names resolve through {@code loader}. */
    record Target(String name, TypeDescription type, ClassFileLocator locator, TypePool pool) {
    }

    Target describe(ClassLoader loader, String internalName, byte[] bytes) {
        String name = internalName.replace('/', '.');
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, bytes),
                loader == null ? ClassFileLocator.ForClassLoader.ofBootLoader() : ClassFileLocator.ForClassLoader.of(loader));
        TypePool pool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(), locator,
                TypePool.Default.ReaderMode.FAST);
        return new Target(name, pool.describe(name).resolve(), locator, pool);
    }

    byte[] rewrite(Target target, List<AsmVisitorWrapper> advice) {
        DynamicType.Builder<?> builder = byteBuddy.redefine(target.type(), target.locator());
        for (AsmVisitorWrapper a : advice) {
            builder = builder.visit(a);
        }
        return builder.make(TypeResolutionStrategy.Disabled.INSTANCE, target.pool()).getBytes();
    }
}

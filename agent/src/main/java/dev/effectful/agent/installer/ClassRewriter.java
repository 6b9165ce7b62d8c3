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

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

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

    /**
     * Per class loader, what its other classes look like (String, the API's annotations, ...):
     * resolved once, not once per rewritten class, which made each tool class cost milliseconds.
     * Weak keys and weakly held loaders, so an application's loader can still be collected.
     */
    private final Map<ClassLoader, TypePool> byLoader = Collections.synchronizedMap(new WeakHashMap<>());

    /** Tool-declaring supertypes that no loader serves as a resource (proxies' and generated types). */
    private final ClassFileLocator seenToolTypes;

    ClassRewriter(ToolSupertypes supertypes) {
        this.seenToolTypes = new ClassFileLocator() {
            @Override
            public Resolution locate(String name) {
                return supertypes.toolType(name.replace('.', '/')).<Resolution>map(Resolution.Explicit::new)
                        .orElseGet(() -> new Resolution.Illegal(name));
            }

            @Override
            public void close() {
            }
        };
    }

    Target describe(ClassLoader loader, String internalName, byte[] bytes) {
        String name = internalName.replace('/', '.');
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, bytes),
                loader == null ? ClassFileLocator.ForClassLoader.ofBootLoader() : ClassFileLocator.ForClassLoader.of(loader),
                seenToolTypes);
        TypePool shared = byLoader.computeIfAbsent(loader, l -> new TypePool.Default.WithLazyResolution(
                new TypePool.CacheProvider.Simple(), l == null ? ClassFileLocator.ForClassLoader.ofBootLoader()
                : ClassFileLocator.ForClassLoader.WeaklyReferenced.of(l), TypePool.Default.ReaderMode.FAST));
        // asks the shared pool first: at first load the loader's own class file is these same bytes,
        // and a class it cannot find (defined at run time) is described from the bytes given
        TypePool pool = new TypePool.Default.WithLazyResolution(new TypePool.CacheProvider.Simple(), locator,
                TypePool.Default.ReaderMode.FAST, shared);
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

package dev.effectful.instrumentation.mcp;

import dev.effectful.instrumentation.api.ForwardingVisitorWrapper;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;

/**
 * Lets method advice reach a class's synthetic methods (a lambda's body, {@code lambda$name$N}). Byte
 * Buddy leaves synthetic methods out of the list it hands a visitor wrapper, so advice {@code on} a
 * lambda's name never matched; this hands it every method the class declares.
 */
final class SyntheticMethods extends ForwardingVisitorWrapper {

    SyntheticMethods(AsmVisitorWrapper advice) {
        super(advice);
    }

    @Override
    protected MethodList<?> methods(TypeDescription type, MethodList<?> methods) {
        return type.getDeclaredMethods();
    }
}

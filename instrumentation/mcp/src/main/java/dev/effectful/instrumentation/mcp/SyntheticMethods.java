package dev.effectful.instrumentation.mcp;

import dev.effectful.instrumentation.api.ForwardingVisitorWrapper;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.pool.TypePool;

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
    public ClassVisitor wrap(TypeDescription type, ClassVisitor visitor, Implementation.Context context, TypePool pool,
                             FieldList<FieldDescription.InDefinedShape> fields, MethodList<?> methods,
                             int writerFlags, int readerFlags) {
        return advice.wrap(type, visitor, context, pool, fields, type.getDeclaredMethods(), writerFlags, readerFlags);
    }
}

package dev.effectful.instrumentation.api;

import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.pool.TypePool;

/**
 * An {@link AsmVisitorWrapper} that stands in front of an instrumentation's advice and decides how it is
 * applied: only where the class still has the shape the advice was written for, or to methods Byte Buddy
 * would not hand it. The writer and reader flags are the advice's own; {@link #wrap} forwards unchanged
 * unless a subclass says otherwise.
 */
public abstract class ForwardingVisitorWrapper implements AsmVisitorWrapper {

    /** The advice this wrapper applies. */
    protected final AsmVisitorWrapper advice;

    /** @param advice the advice applied (usually {@code Advice.to(...).on(...)}) */
    protected ForwardingVisitorWrapper(AsmVisitorWrapper advice) {
        this.advice = advice;
    }

    @Override
    public int mergeWriter(int flags) {
        return advice.mergeWriter(flags);
    }

    @Override
    public int mergeReader(int flags) {
        return advice.mergeReader(flags);
    }

    @Override
    public ClassVisitor wrap(TypeDescription type, ClassVisitor visitor, Implementation.Context context, TypePool pool,
                             FieldList<FieldDescription.InDefinedShape> fields, MethodList<?> methods,
                             int writerFlags, int readerFlags) {
        return advice.wrap(type, visitor, context, pool, fields, methods, writerFlags, readerFlags);
    }
}

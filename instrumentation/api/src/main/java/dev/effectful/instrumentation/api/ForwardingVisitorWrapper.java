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
 * applied: only where the class still has the shape the advice was written for ({@link #fits}), or to
 * methods Byte Buddy would not hand it ({@link #methods}). The writer and reader flags are the advice's
 * own. Subclasses answer those two questions and never repeat Byte Buddy's long {@code wrap} signature.
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
    public final ClassVisitor wrap(TypeDescription type, ClassVisitor visitor, Implementation.Context context,
                                   TypePool pool, FieldList<FieldDescription.InDefinedShape> fields,
                                   MethodList<?> methods, int writerFlags, int readerFlags) {
        if (!fits(type, fields)) {
            return visitor;
        }
        return advice.wrap(type, visitor, context, pool, fields, methods(type, methods), writerFlags, readerFlags);
    }

    /**
     * Whether the advice applies to {@code type} at all; where not, the class loads unchanged. Default: always.
     *
     * @param type the class being loaded
     * @param fields the fields it declares
     */
    protected boolean fits(TypeDescription type, FieldList<FieldDescription.InDefinedShape> fields) {
        return true;
    }

    /**
     * The methods the advice may match in {@code type}. Default: those Byte Buddy hands the wrapper.
     *
     * @param type the class being loaded
     * @param methods the methods Byte Buddy hands the wrapper (without the synthetic ones)
     */
    protected MethodList<?> methods(TypeDescription type, MethodList<?> methods) {
        return methods;
    }
}

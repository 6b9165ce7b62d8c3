package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.runtime.tool.ToolMethod;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;

/** Builds the outcomes of one call: its key, attempt and budget filled in where the stages leave them out. */
final class Outcomes {

    private Outcomes() {
    }

    static Outcome<Object> of(Call call, Status status, EffectApplied effect, Long retryAfterS, Object value,
                              String message) {
        return new Outcome<>(status, effect, call.attemptId(), call.intentKey(), retryAfterS,
                call.task() == null ? null : call.task().leftSeconds(), message, value, List.of());
    }

    /** An outcome the tool built itself, with what it left empty taken from the call. */
    static Outcome<Object> fill(Call call, Outcome<?> own) {
        return new Outcome<>(own.status(), own.effectApplied(),
                own.attemptId() != null ? own.attemptId() : call.attemptId(),
                own.intentKey() != null ? own.intentKey() : call.intentKey(), own.retryAfterS(),
                own.deadlineLeftS() != null ? own.deadlineLeftS() : call.task().leftSeconds(), own.message(),
                (Object) own.value(), own.items());
    }

    static Outcome<Object> withValue(Outcome<Object> o, Object value) {
        return new Outcome<>(o.status(), o.effectApplied(), o.attemptId(), o.intentKey(), o.retryAfterS(),
                o.deadlineLeftS(), o.message(), value, o.items());
    }

    /** An ok that has no value to give back, saying why; no attempt ran for it. */
    static Outcome<Object> okWithoutValue(Call call, String message) {
        return new Outcome<>(Status.OK, EffectApplied.YES, null, call.intentKey(), null, call.task().leftSeconds(), message,
                null, List.of());
    }

    /** The type a stored result is read back as: T of an {@code Outcome<T>} tool, else the return type. */
    static Type valueType(ToolMethod tool) {
        if (tool.returnsOutcome() && tool.returnType() instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[0];
        }
        return tool.returnType();
    }

    /** The exception the tool threw, from under the reflection wrappers a proxy adds. */
    static Throwable unwrap(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof InvocationTargetException || cur instanceof UndeclaredThrowableException)
                && cur.getCause() != null) {
            cur = cur.getCause();
        }
        return cur;
    }
}

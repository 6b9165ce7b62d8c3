package dev.effectful.runtime.tool;

import dev.effectful.EffectKind;
import dev.effectful.runtime.classify.ToolOverrides;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.ReentryDeclaration;
import dev.effectful.core.values.ParamSpec;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Optional;

/**
 * Everything the engine needs to know about one {@code @EffectfulTool} method, worked out once
 * from its annotations and signature.
 *
 * @param verb       the intent's verb and the journal's {@code call}
 * @param params     per-parameter treatment, in order
 * @param probe      the declared probe, validated (same parameter types; a return type {@code ProbeForms} accepts)
 * @param check      the declared result check, validated (one parameter taking the return type)
 * @param returnType the generic return type the stored result is read back as
 * @param batch      present for a batch tool (one {@code @Items} collection parameter)
 * @param keyable    the tool's own {@code keyable = true}; a key header does not imply it (an attempt whose key a
 *                   covered client sent is keyable by its {@code key_sent} record instead)
 * @param keyHeader  the HTTP header the body's requests carry the intent key in; empty: none
 * @param approvalDeclared the tool declares {@code approval = Approval.REQUIRED} (the configuration may require
 *                   one too: see the engine's admission)
 */
public record ToolMethod(Method method, EffectKind kind, String verb, ParamSpec[] params, boolean hasIntentKey,
                         Optional<Method> probe, Optional<Method> check, ToolOverrides overrides, boolean keyable,
                         long floorMillis, long timeoutMillis, Type returnType, Optional<BatchSpec> batch,
                         String keyHeader, boolean approvalDeclared) {

    private static final String[] KIND_WORDS = java.util.Arrays.stream(EffectKind.values())
            .map(k -> k.name().toLowerCase(java.util.Locale.ROOT)).toArray(String[]::new);

    /** The kind as the journal writes it; looked up, since lower-casing it per record showed in profiles. */
    public String kindWord() {
        return KIND_WORDS[kind.ordinal()];
    }

    /** The intent record's {@code reentry} word: what lets a re-entry settle without a person. */
    public String reentryWord() {
        return reentryWord(keyable);
    }

    /** The same word with {@code keyable} as given. */
    public String reentryWord(boolean keyable) {
        return new ReentryDeclaration(probe.isPresent(), keyable).word();
    }

    public boolean returnsOutcome() {
        return method.getReturnType() == dev.effectful.Outcome.class;
    }

    /** A tool returning Optional: its probe's Optional is the value itself, not a found/absent wrapper. */
    public boolean returnsOptional() {
        return method.getReturnType() == Optional.class;
    }

    public boolean returnsString() {
        return method.getReturnType() == String.class;
    }

    public boolean returnsVoid() {
        return method.getReturnType() == void.class;
    }

    /** Null for a blocking tool; else the promise it returns ({@link AsyncShape}). */
    public AsyncShape async() {
        return AsyncShape.of(method);
    }

    /** The class of the value a call completes with: the return type, or T of an async tool's promise. */
    public Class<?> valueClass() {
        return ProbeForms.valueClass(method);
    }

    public boolean isRead() {
        return Kind.alwaysRuns(kind.name());
    }

    /** The value to return from a method whose body did not produce one: zero for primitives. */
    public Object emptyReturn() {
        Class<?> r = method.getReturnType();
        if (!r.isPrimitive() || r == void.class) {
            return null;
        }
        if (r == boolean.class) {
            return Boolean.FALSE;
        }
        if (r == char.class) {
            return (char) 0;
        }
        if (r == long.class) {
            return 0L;
        }
        if (r == double.class) {
            return 0d;
        }
        if (r == float.class) {
            return 0f;
        }
        if (r == byte.class) {
            return (byte) 0;
        }
        if (r == short.class) {
            return (short) 0;
        }
        return 0;
    }

    @Override
    public String toString() {
        return method.getDeclaringClass().getName() + "." + method.getName() + " (" + verb + ", " + kind + ")";
    }
}

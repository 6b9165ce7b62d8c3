package dev.effectful.instrumentation.api;

import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A call the agent inserts at the entry of one library method, described rather than written as
 * advice: the agent's small weaver (ASM's core alone) inserts
 * {@code value = hook(value)} for the argument named, before the method's own code, without Byte
 * Buddy's pipeline (some 700 classes an application would otherwise load the moment the library's
 * class loads). The hook runs in the agent's class loader: it names JDK types freely and reaches a
 * library's own types reflectively. Whatever it throws is swallowed and the value stays as it was: a
 * fault here never breaks the application.
 *
 * @param method           the method's name
 * @param descriptor       its exact JVM descriptor, e.g. {@code ()V}
 * @param argument         the argument handed to the hook: its index, or {@link #THIS} for the receiver
 * @param replacesArgument whether what the hook returns replaces the argument (then the hook returns a
 *                         value of the argument's declared type, or the argument itself)
 * @param hook             what runs; it receives the argument (never null for {@link #THIS})
 */
public record EntryCall(String method, String descriptor, int argument, boolean replacesArgument,
                        UnaryOperator<Object> hook) {

    /** {@link #argument} value naming the receiver ({@code this}). */
    public static final int THIS = -1;

    /** Checks the parts. */
    public EntryCall {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(hook, "hook");
        if (argument < THIS || argument == THIS && replacesArgument) {
            throw new IllegalArgumentException("argument " + argument + (replacesArgument ? " cannot be replaced" : ""));
        }
    }
}

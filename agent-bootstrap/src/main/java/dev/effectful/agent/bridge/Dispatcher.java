package dev.effectful.agent.bridge;

/**
 * What the inlined advice calls, implemented inside the agent's isolated class loader. Only JDK
 * types cross this line, so the application never sees a class of the runtime's libraries.
 */
public interface Dispatcher {

    /**
     * Called before the body of an {@code @EffectfulTool} method.
     *
     * @return a call handle (never null); {@link #skipBody} says whether the body must not run
     */
    Object enter(Class<?> type, String methodAndDescriptor, Object self, Object[] args);

    /**
     * {@link #enter} for a tool returning a promise: a future, a Mono, a Kotlin suspend function (whose
     * continuation is the last argument). Null lets the body run untouched (a suspend function resuming).
     */
    default Object enterAsync(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        return enter(type, methodAndDescriptor, self, args);
    }

    /** {@link #exitValue} for a call {@link #enterAsync} returned: the promise, or the answer now. */
    default Object exitValueAsync(Object handle, Object returned, Throwable thrown) {
        return exitValue(handle, returned, thrown);
    }

    /** The arguments the body runs with (a batch sends only the items that did not land yet). */
    Object[] arguments(Object handle, Object[] original);

    /** True when the decision for this call was taken without running the body. */
    boolean skipBody(Object handle);

    /**
     * Called after the body returned or threw, or after it was skipped.
     *
     * @param returned the body's return value (boxed), or null
     * @param thrown   what the body threw, or null
     * @return the value to return, already boxed to the method's return type
     */
    Object exitValue(Object handle, Object returned, Throwable thrown);

    /** What to throw instead of returning; read after {@link #exitValue}. Null means return. */
    Throwable exitThrown(Object handle);
}

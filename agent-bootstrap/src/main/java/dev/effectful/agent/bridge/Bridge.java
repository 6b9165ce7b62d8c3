package dev.effectful.agent.bridge;

/**
 * The one door between rewritten application code and the agent. It lives on the bootstrap
 * class path so every class loader can reach it, and it holds nothing but a reference to the
 * {@link Dispatcher} the agent installs once its runtime is ready.
 */
public final class Bridge {

    private static volatile Dispatcher dispatcher;

    private Bridge() {
    }

    /** Installs the dispatcher; called once by the agent. */
    public static void install(Dispatcher d) {
        dispatcher = d;
    }

    /**
     * Null when the agent is not running, or when the call is guarded elsewhere ({@link GuardedElsewhere}:
     * the JUnit kit's own calls): the advice then lets the body run untouched.
     */
    public static Object enter(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        Dispatcher d = dispatcher;
        return d == null || GuardedElsewhere.claims(type) ? null : d.enter(type, methodAndDescriptor, self, args);
    }

    public static Object[] arguments(Object handle, Object[] original) {
        Dispatcher d = dispatcher;
        return handle == null || d == null ? original : d.arguments(handle, original);
    }

    public static boolean skipBody(Object handle) {
        Dispatcher d = dispatcher;
        return handle != null && d != null && d.skipBody(handle);
    }

    public static Object exitValue(Object handle, Object returned, Throwable thrown) {
        return dispatcher.exitValue(handle, returned, thrown);
    }

    public static Throwable exitThrown(Object handle) {
        return dispatcher.exitThrown(handle);
    }
}

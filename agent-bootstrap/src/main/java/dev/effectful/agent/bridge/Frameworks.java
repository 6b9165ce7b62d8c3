package dev.effectful.agent.bridge;

/**
 * The door the framework and HTTP-client advice goes through (see {@link FrameworkHooks}). Like
 * {@link Bridge}, it holds nothing but the implementation the agent installs; before that, or
 * without the agent, every call does nothing.
 */
public final class Frameworks {

    private static volatile FrameworkHooks hooks;

    private Frameworks() {
    }

    /** Installs the implementation; called once by the agent. */
    public static void install(FrameworkHooks h) {
        hooks = h;
    }

    /** See {@link FrameworkHooks#openTask}; null when the agent is not running. */
    public static Object openTask(String library, String taskId, String actor) {
        FrameworkHooks h = hooks;
        return h == null ? null : h.openTask(library, taskId, actor);
    }

    /** See {@link FrameworkHooks#keyHeader}; null when the agent is not running or nothing is due. */
    public static String[] keyHeader() {
        FrameworkHooks h = hooks;
        return h == null ? null : h.keyHeader();
    }

    /** See {@link FrameworkHooks#keyHeaderKept}. */
    public static void keyHeaderKept(String value) {
        FrameworkHooks h = hooks;
        if (h != null) {
            h.keyHeaderKept(value);
        }
    }

    /**
     * A header filter that keeps every header, for advice that copies an immutable request
     * ({@code HttpRequest.newBuilder(request, filter)}): advice cannot hold a lambda of its own.
     */
    public static java.util.function.BiPredicate<String, String> everyHeader() {
        return EveryHeader.INSTANCE;
    }

    private enum EveryHeader implements java.util.function.BiPredicate<String, String> {
        INSTANCE;

        @Override
        public boolean test(String name, String value) {
            return true;
        }
    }

    /** See {@link FrameworkHooks#closeTask}. */
    public static void closeTask(Object token) {
        FrameworkHooks h = hooks;
        if (h != null && token != null) {
            h.closeTask(token);
        }
    }
}

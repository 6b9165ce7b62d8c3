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

    /** See {@link FrameworkHooks#enterOwnedTask}; null when the agent is not running. */
    public static Object enterOwnedTask(String library, Object owner, String actor) {
        FrameworkHooks h = hooks;
        return h == null || owner == null ? null : h.enterOwnedTask(library, owner, actor);
    }

    /** See {@link FrameworkHooks#exitOwnedTask}. */
    public static void exitOwnedTask(Object token) {
        FrameworkHooks h = hooks;
        if (h != null && token != null) {
            h.exitOwnedTask(token);
        }
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

    /** See {@link FrameworkHooks#keyHeaderSent}. */
    public static void keyHeaderSent(String value) {
        FrameworkHooks h = hooks;
        if (h != null) {
            h.keyHeaderSent(value);
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

    /** See {@link FrameworkHooks#hintedTool}; {@code tool} itself when the agent is not running. */
    public static Object hintedTool(String library, Object tool) {
        FrameworkHooks h = hooks;
        return h == null || tool == null ? tool : h.hintedTool(library, tool);
    }

    /** See {@link FrameworkHooks#closeTask}. */
    public static void closeTask(Object token) {
        FrameworkHooks h = hooks;
        if (h != null && token != null) {
            h.closeTask(token);
        }
    }

    /** See {@link FrameworkHooks#remoteTaskMeta}; null (send as it is) when the agent is not running. */
    public static java.util.Map<String, Object> remoteTaskMeta(String library, java.util.Map<String, Object> meta) {
        FrameworkHooks h = hooks;
        return h == null ? null : h.remoteTaskMeta(library, meta);
    }

    /**
     * A remote tool's handler that runs each call in the task its request names ({@link
     * FrameworkHooks#openRemoteTask}); {@code handler} itself when the agent is not running, when it is
     * already wrapped, or when it is the library's own adapter (its class name starts with
     * {@code libraryPackage}: the adapter calls a handler that is wrapped already).
     */
    public static <A, B, R> java.util.function.BiFunction<A, B, R> remoteTaskHandler(
            String library, java.util.function.BiFunction<A, B, R> handler, String libraryPackage) {
        if (hooks == null || handler == null || handler instanceof RemoteTaskHandler
                || handler.getClass().getName().startsWith(libraryPackage)) {
            return handler;
        }
        return new RemoteTaskHandler<>(library, handler);
    }

    /** See {@link FrameworkHooks#openRemoteTask}. */
    public static Object openRemoteTask(String library, Object channel, Object request) {
        FrameworkHooks h = hooks;
        return h == null ? null : h.openRemoteTask(library, channel, request);
    }

    /** See {@link FrameworkHooks#transportCaller}. */
    public static Object transportCaller(String library, String transport, String principal, String remoteAddress) {
        FrameworkHooks h = hooks;
        return h == null ? null : h.transportCaller(library, transport, principal, remoteAddress);
    }

    /** See {@link FrameworkHooks#transportCallerDone}. */
    public static void transportCallerDone(Object token) {
        FrameworkHooks h = hooks;
        if (h != null && token != null) {
            h.transportCallerDone(token);
        }
    }

    /** See {@link FrameworkHooks#bindTransportCaller}. */
    public static void bindTransportCaller(Object channel) {
        FrameworkHooks h = hooks;
        if (h != null && channel != null) {
            h.bindTransportCaller(channel);
        }
    }

    /** See {@link FrameworkHooks#sameTransportCaller}. */
    public static void sameTransportCaller(Object from, Object to) {
        FrameworkHooks h = hooks;
        if (h != null && from != null && to != null) {
            h.sameTransportCaller(from, to);
        }
    }
}

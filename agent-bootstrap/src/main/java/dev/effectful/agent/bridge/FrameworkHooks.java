package dev.effectful.agent.bridge;

/**
 * What the advice inlined into agent frameworks (LangChain4j, Spring AI, MCP) and HTTP clients asks
 * of the agent, implemented inside the agent's isolated class loader. Only JDK types cross this line.
 * Every method is called from advice that suppresses throwables, but implementations must not throw:
 * a framework call goes on whatever happens here.
 */
public interface FrameworkHooks {

    /**
     * Makes a framework invocation (an AI-service method, a chat-client call) run in a task when the
     * caller has none: the explicit {@code Task.open} of the application always wins.
     *
     * @param library the framework, for the log and for a task of its own ({@code "langchain4j"})
     * @param taskId  the conversation the framework names (a memory id); null or blank: a task of its own
     *                for this invocation
     * @param actor   who acts (a user name the framework names); null: none
     * @return a token for {@link #closeTask}, or null when a task was already current (nothing opened)
     */
    Object openTask(String library, String taskId, String actor);

    /** Closes what {@link #openTask} opened; null does nothing. */
    void closeTask(Object token);

    /**
     * Makes one step of a long-lived loop object (an SDK's tool runner, iterated step by step on the
     * caller's thread) run in that object's task when the caller has none: the first step opens a task
     * of the object's own ({@code library-<uuid>}, with one budget for the whole loop), every later
     * step of the same object enters that same task again. The explicit {@code Task.open} of the
     * application always wins.
     *
     * @param library the SDK, for the log and the task's id ({@code "anthropic"})
     * @param owner   the loop object, compared by identity and held weakly (the task goes with it)
     * @param actor   who acts (a user id the request names); null: none
     * @return a token for {@link #exitOwnedTask}, or null when a task was already current (nothing entered)
     */
    default Object enterOwnedTask(String library, Object owner, String actor) {
        return null;
    }

    /** Leaves what {@link #enterOwnedTask} entered, restoring what the thread had before; null does nothing. */
    default void exitOwnedTask(Object token) {
    }

    /**
     * A remote call made in the current task (an MCP {@code tools/call}): the request's metadata with the
     * task's entry ({@code dev.effectful/task}: id, actor, budget left) added, as a new map.
     *
     * @param library the protocol, for the log ({@code "mcp"})
     * @param meta    the metadata the application set; null when none
     * @return the metadata to send instead, or null to send it as it is (no task current, or the
     *         application set the entry itself)
     */
    java.util.Map<String, Object> remoteTaskMeta(String library, java.util.Map<String, Object> meta);

    /**
     * A remote call arrived (an MCP tool request): binds the task its metadata names, if the entry is
     * well formed and the transport is trusted (see {@code effectful.mcp.trust_task}); an authenticated
     * principal of the transport is the actor, whatever the entry says.
     *
     * @param library the protocol ({@code "mcp"})
     * @param channel what the transport handed the handler (an exchange, a transport context): the
     *                key under which {@link #transportCaller} recorded who is calling
     * @param request the request, whose {@code meta()} map may carry the entry
     * @return a token for {@link #closeTask}, or null when nothing was opened
     */
    Object openRemoteTask(String library, Object channel, Object request);

    /**
     * A transport starts handling a request on this thread: who sends it, for the trust rules.
     *
     * @param transport     {@code "stdio"} or {@code "http"}
     * @param principal     the authenticated user the transport knows; null: none
     * @param remoteAddress the peer's IP address as text; null for stdio
     * @return a token for {@link #transportCallerDone}
     */
    Object transportCaller(String library, String transport, String principal, String remoteAddress);

    /** The request {@link #transportCaller} announced is handled; restores what was before. */
    void transportCallerDone(Object token);

    /** {@code channel} was made on this thread for the request being handled: it carries its caller. */
    void bindTransportCaller(Object channel);

    /** {@code to} wraps {@code from} (a synchronous exchange around an asynchronous one): same caller. */
    void sameTransportCaller(Object from, Object to);

    /**
     * A server registers a tool (an MCP tool specification being built): the tool's description with the
     * hints of the guarded tool of that name added ({@code effectful.mcp.hints}), as a new object of the
     * same class; {@code tool} itself when no guarded tool has that name, when hints are off, or when the
     * rewrite fails (the tool is then listed as its author wrote it).
     *
     * @param library the protocol ({@code "mcp"})
     * @param tool    the library's tool description ({@code McpSchema.Tool})
     */
    default Object hintedTool(String library, Object tool) {
        return tool;
    }

    /**
     * The key header for an HTTP request being sent on this thread now: {@code {name, value}} when the
     * attempt running here is of a tool with {@code @EffectfulTool(keyHeader = ...)} (the value is the
     * intent key, or the batch item's key), else null. The advice adds it unless the request has that
     * header already.
     */
    default String[] keyHeader() {
        return null;
    }

    /**
     * The request already carried the key header (set by the application or its HTTP library) with
     * {@code value}, which was kept: the agent warns when that is not the intent key.
     */
    default void keyHeaderKept(String value) {
    }

    /**
     * The advice put {@code value} (from {@link #keyHeader}) on a request that is about to leave: the
     * journal records it ({@code key_sent}) before the request goes, so that an unknown outcome of the
     * attempt may be re-run with the same key. Returns when the record is written (or could not be).
     */
    default void keyHeaderSent(String value) {
    }
}

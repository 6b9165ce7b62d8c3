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
}

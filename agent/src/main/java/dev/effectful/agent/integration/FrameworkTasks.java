package dev.effectful.agent.integration;

import dev.effectful.Task;
import dev.effectful.agent.bridge.FrameworkHooks;
import dev.effectful.core.config.EffectfulConfig.TrustTask;
import dev.effectful.runtime.engine.KeyHeaders;
import dev.effectful.core.log.AgentLog;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * Tasks taken from what a framework already knows, so that one JVM flag is enough: an AI-service
 * invocation with a conversation id runs in the task of that conversation, one without runs in a task
 * of its own (the model's rephrased retries inside it are still caught). An explicit
 * {@code Task.open} always wins: nothing is opened when a task is current. Also tells the HTTP-client
 * advice which key header a request sent now must carry (the runtime's {@code KeyHeaders}).
 */
public final class FrameworkTasks implements FrameworkHooks {

    private final Duration budget;
    private final RemoteTaskBinding remote;
    private final OwnedTasks owned = new OwnedTasks();
    private final McpToolHints hints;
    private final McpElicitation elicitation;

    /** @param budget the budget of a task opened here ({@code effectful.task.budget}) */
    public FrameworkTasks(Duration budget) {
        this(budget, TrustTask.LOOPBACK);
    }

    /**
     * @param budget the budget of a task opened here ({@code effectful.task.budget}), also the most a
     *               remote caller's task may lend
     * @param trust  whose task entries a remote tool request is believed with ({@code effectful.mcp.trust_task})
     */
    public FrameworkTasks(Duration budget, TrustTask trust) {
        this(budget, trust, new McpToolHints(false, name -> java.util.List.of()));
    }

    /**
     * @param budget the budget of a task opened here ({@code effectful.task.budget}), also the most a
     *               remote caller's task may lend
     * @param trust  whose task entries a remote tool request is believed with ({@code effectful.mcp.trust_task})
     * @param hints  the hints an MCP server's tools are listed with ({@code effectful.mcp.hints})
     */
    public FrameworkTasks(Duration budget, TrustTask trust, McpToolHints hints) {
        this(budget, trust, hints, new McpElicitation(false));
    }

    /**
     * @param budget      the budget of a task opened here ({@code effectful.task.budget}), also the most a
     *                    remote caller's task may lend
     * @param trust       whose task entries a remote tool request is believed with ({@code effectful.mcp.trust_task})
     * @param hints       the hints an MCP server's tools are listed with ({@code effectful.mcp.hints})
     * @param elicitation whether an MCP client is asked for approvals ({@code effectful.approval.elicit})
     */
    public FrameworkTasks(Duration budget, TrustTask trust, McpToolHints hints, McpElicitation elicitation) {
        this.budget = budget;
        this.remote = new RemoteTaskBinding(budget, trust);
        this.hints = hints;
        this.elicitation = elicitation;
    }

    @Override
    public Object hintedTool(String library, Object tool) {
        return hints.hinted(tool); // never throws: a failure lists the tool as its author wrote it
    }

    @Override
    public Object openTask(String library, String taskId, String actor) {
        try {
            if (Task.current().isPresent()) {
                return null;
            }
            boolean own = taskId == null || taskId.isBlank();
            String id = own ? library + "-" + UUID.randomUUID() : taskId;
            Task task = Task.open(id, actor, budget);
            AgentLog.debug("effectful: " + library + " opened task " + id + (own ? " (an invocation of its own)" : ""));
            return task;
        } catch (Throwable t) {
            // the invocation goes on in no task: each tool call is then its own implicit task, as without the integration
            AgentLog.errorOnce("framework-task:" + library, "effectful could not open a task for a " + library
                    + " invocation; its tool calls are each their own task", t);
            return null;
        }
    }

    @Override
    public Object enterOwnedTask(String library, Object owner, String actor) {
        try {
            if (Task.current().isPresent()) {
                return null;
            }
            return owned.enter(library, owner, actor, budget);
        } catch (Throwable t) {
            AgentLog.errorOnce("owned-task:" + library, "effectful could not open a task for a " + library
                    + " tool runner; its tool calls are each their own task", t);
            return null;
        }
    }

    @Override
    public void exitOwnedTask(Object token) {
        OwnedTasks.exit(token);
    }

    @Override
    public String[] keyHeader() {
        try {
            return KeyHeaders.forRequest();
        } catch (Throwable t) {
            // the request goes out without the header, as from a tool that declares none
            AgentLog.errorOnce("key-header", "effectful could not tell the key header of a request; it is sent without", t);
            return null;
        }
    }

    @Override
    public void keyHeaderSent(String value) {
        try {
            KeyHeaders.sent(value);
        } catch (Throwable t) {
            // the request goes out with its key; without the record its attempt is simply not keyable
            AgentLog.errorOnce("key-header-sent", "effectful could not journal that a request carried its key", t);
        }
    }

    @Override
    public void keyHeaderKept(String value) {
        try {
            KeyHeaders.applicationKept(value);
        } catch (Throwable t) {
            AgentLog.errorOnce("key-header-kept", "effectful could not check an application's own key header", t);
        }
    }

    @Override
    public void closeTask(Object token) {
        if (token instanceof RemoteScope scope) {
            scope.close();
        } else if (token instanceof Task task) {
            task.close();
        }
    }

    /** What a remote tool request bound around its handler: its task (if one was opened) and its client to ask. */
    private record RemoteScope(Task task, dev.effectful.runtime.approval.ApprovalAsker.Binding asking) {
        void close() {
            try {
                asking.close();
            } finally {
                if (task != null) {
                    task.close();
                }
            }
        }
    }

    @Override
    public Map<String, Object> remoteTaskMeta(String library, Map<String, Object> meta) {
        try {
            return remote.metaFor(meta);
        } catch (Throwable t) {
            // the call goes out without the entry: the callee then runs it as a task of its own, still guarded
            AgentLog.errorOnce("remote-meta:" + library, "effectful could not add the task to a " + library
                    + " tool request; the server runs it as a task of its own", t);
            return null;
        }
    }

    @Override
    public Object openRemoteTask(String library, Object channel, Object request) {
        Task task;
        try {
            task = remote.open(library, channel, request);
        } catch (Throwable t) {
            AgentLog.errorOnce("remote-task:" + library, "effectful could not read the task of a " + library
                    + " tool request; it runs as a task of its own", t);
            task = null;
        }
        dev.effectful.runtime.approval.ApprovalAsker.Binding asking;
        try {
            asking = "mcp".equals(library) ? elicitation.bind(channel) : null;
        } catch (Throwable t) {
            // approvals then wait for the console and the CLI, as without a client to ask
            AgentLog.errorOnce("elicit-bind:" + library, "effectful could not make the " + library + " client an"
                    + " approver; approvals wait for the console and the CLI", t);
            asking = null;
        }
        return asking == null ? task : new RemoteScope(task, asking);
    }

    @Override
    public Object transportCaller(String library, String transport, String principal, String remoteAddress) {
        try {
            return remote.callers().enter(transport, principal, remoteAddress);
        } catch (Throwable t) {
            return null; // the request's exchange then has no caller: its entry is believed only with trust_task=true
        }
    }

    @Override
    public void transportCallerDone(Object token) {
        remote.callers().done(token);
    }

    @Override
    public void bindTransportCaller(Object channel) {
        remote.callers().bind(channel);
    }

    @Override
    public void sameTransportCaller(Object from, Object to) {
        remote.callers().same(from, to);
        elicitation.same(from, to);
    }
}

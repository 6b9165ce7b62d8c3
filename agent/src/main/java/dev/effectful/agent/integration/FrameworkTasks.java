package dev.effectful.agent.integration;

import dev.effectful.Task;
import dev.effectful.agent.bridge.FrameworkHooks;
import dev.effectful.runtime.engine.KeyHeaders;
import dev.effectful.runtime.log.AgentLog;

import java.time.Duration;
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

    /** @param budget the budget of a task opened here ({@code effectful.task.budget}) */
    public FrameworkTasks(Duration budget) {
        this.budget = budget;
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
    public void keyHeaderKept(String value) {
        try {
            KeyHeaders.applicationKept(value);
        } catch (Throwable t) {
            AgentLog.errorOnce("key-header-kept", "effectful could not check an application's own key header", t);
        }
    }

    @Override
    public void closeTask(Object token) {
        if (token instanceof Task task) {
            task.close();
        }
    }
}

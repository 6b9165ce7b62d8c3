package dev.effectful.agent.integration;

import dev.effectful.Task;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.config.EffectfulConfig.TrustTask;
import dev.effectful.core.log.AgentLog;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Tasks that travel with remote tool calls (MCP): the caller's side adds its task's entry to the
 * request ({@link #metaFor}); the callee's side runs the handler in that task ({@link #open}) when it
 * believes the entry:
 * <ul>
 *   <li>the transport has an authenticated principal: it is the actor, whatever the entry says, so one
 *       principal never receives another's stored result;</li>
 *   <li>otherwise {@code effectful.mcp.trust_task}: {@code loopback} (default) believes stdio and
 *       loopback callers (not a request a proxy forwarded: its peer address is the proxy's), {@code true}
 *       everyone, {@code false} no one.</li>
 * </ul>
 * The budget is the smaller of what the caller had left and {@code effectful.task.budget}. An entry
 * that is not believed or not well formed is ignored whole: the call runs as it would without it,
 * guarded, in no borrowed task. An explicit {@code Task.open} wins: nothing is bound when a task is current.
 */
final class RemoteTaskBinding {

    private final Duration maxBudget;
    private final TrustTask trust;
    private final RemoteCallers callers = new RemoteCallers();
    private final ClassValue<Optional<Method>> metaAccessor = new ClassValue<>() {
        @Override
        protected Optional<Method> computeValue(Class<?> type) {
            try {
                Method m = type.getMethod("meta");
                return Map.class.isAssignableFrom(m.getReturnType()) ? Optional.of(m) : Optional.empty();
            } catch (NoSuchMethodException | SecurityException e) {
                return Optional.empty();
            }
        }
    };

    RemoteTaskBinding(Duration maxBudget, TrustTask trust) {
        this.maxBudget = maxBudget;
        this.trust = trust;
    }

    RemoteCallers callers() {
        return callers;
    }

    Map<String, Object> metaFor(Map<String, Object> meta) {
        Optional<Task> task = Task.current();
        if (task.isEmpty() || (meta != null && meta.containsKey(RemoteTasks.KEY))) {
            return null; // no task to tell, or the application wrote the entry itself: it stays
        }
        Task t = task.get();
        Map<String, Object> out = meta == null ? new LinkedHashMap<>() : new LinkedHashMap<>(meta);
        out.put(RemoteTasks.KEY, RemoteTasks.entryOf(t.id(), t.actor(), t.remaining()));
        return out;
    }

    Task open(String library, Object channel, Object request) {
        if (Task.current().isPresent()) {
            return null;
        }
        Object raw = entryIn(request);
        if (raw == null) {
            return null;
        }
        RemoteCallers.Caller caller = callers.of(channel).orElse(RemoteCallers.Caller.UNKNOWN);
        if (trust == TrustTask.FALSE) {
            AgentLog.debug("effectful: " + library + " task entry ignored (" + EffectfulConfig.MCP_TRUST_TASK + "=false)");
            return null;
        }
        boolean believed = caller.principal() != null || trust == TrustTask.TRUE || caller.local();
        if (!believed) {
            AgentLog.warnOnce("remote-task-untrusted:" + library, "effectful: " + library + " tool requests carry a task"
                    + " entry from a caller that is neither authenticated nor on loopback (" + caller.transport()
                    + "; a request a proxy forwarded is not a loopback caller, whatever its peer address); it is"
                    + " ignored and each call runs as its own task. Set " + EffectfulConfig.MCP_TRUST_TASK
                    + "=true only if every caller that can reach this server may act in any task");
            return null;
        }
        RemoteTasks.Entry entry;
        try {
            entry = RemoteTasks.parse(raw);
        } catch (RemoteTasks.Malformed m) {
            AgentLog.warnOnce("remote-task-malformed:" + library + ":" + m.getMessage(), "effectful: a " + library
                    + " tool request carried a malformed " + RemoteTasks.KEY + " entry (" + m.getMessage()
                    + "); it is ignored whole and the call runs guarded in a task of its own");
            return null;
        }
        String actor = caller.principal() != null ? caller.principal() : entry.actor();
        Duration budget = entry.budget().compareTo(maxBudget) < 0 ? entry.budget() : maxBudget;
        Task task = Task.open(entry.id(), actor, budget);
        AgentLog.debug("effectful: " + library + " tool request runs in task " + entry.id() + " (" + caller.transport()
                + (caller.principal() != null ? ", principal" : "") + ", budget " + budget.toMillis() + " ms)");
        return task;
    }

    private Object entryIn(Object request) {
        if (request == null) {
            return null;
        }
        Optional<Method> accessor = metaAccessor.get(request.getClass());
        if (accessor.isEmpty()) {
            return null;
        }
        try {
            Object meta = accessor.get().invoke(request);
            return meta instanceof Map<?, ?> m ? m.get(RemoteTasks.KEY) : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}

package dev.effectful.agent.integration;

import dev.effectful.Task;
import dev.effectful.core.log.AgentLog;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import java.util.WeakHashMap;

/**
 * The task of each long-lived loop object (an SDK's tool runner): opened at its first step, entered
 * again at every later one, so the whole loop is one task with one budget however many times the
 * application's code runs between two steps. Keys are weak: a runner that is dropped takes its task
 * with it. SDK loop objects do not override {@code equals}, so the map compares them by identity.
 */
final class OwnedTasks {

    private final Map<Object, Task> tasks = Collections.synchronizedMap(new WeakHashMap<>());

    /** What a step entered: the thread's binding before it, put back at {@link #exit}. */
    private record Entered(Task before) {
    }

    /** Binds {@code owner}'s task on this thread, opening it at the first step; the caller has none. */
    Object enter(String library, Object owner, String actor, Duration budget) {
        Task task = tasks.get(owner);
        if (task == null) {
            String id = library + "-" + UUID.randomUUID();
            // opened on this thread (binds it), then unbound at exit like every later step
            task = Task.open(id, actor, budget);
            tasks.put(owner, task);
            AgentLog.debug("effectful: " + library + " opened task " + id + " for a tool runner");
            return new Entered(null);
        }
        return new Entered(Task.enter(task));
    }

    /** Puts back what the thread had before the step. */
    static void exit(Object token) {
        if (token instanceof Entered e) {
            Task.exit(e.before());
        }
    }
}

package dev.effectful.runtime.engine;

import dev.effectful.core.log.AgentLog;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What an engine started and must stop when it is closed: its background threads (retention
 * sweeper, index checkpoints, resolution watch, deadline watchdog, a shared store's lease renewer).
 * They are daemons, so a JVM exits regardless; closing matters to whoever builds engines and goes on
 * living (the test kit, a takeover, tests), which would otherwise gather threads that never end.
 */
final class EngineResources implements AutoCloseable {

    private final Deque<AutoCloseable> owned = new ArrayDeque<>();
    private boolean closed;

    /** Takes {@code resource} to close with the engine; closes it at once if the engine already is. */
    synchronized void own(AutoCloseable resource) {
        if (closed) {
            closeQuietly(resource);
            return;
        }
        owned.push(resource);
    }

    /** Closes in the reverse order of {@link #own}, each once; one failing does not keep the others open. */
    @Override
    public synchronized void close() {
        closed = true;
        AutoCloseable next;
        while ((next = owned.poll()) != null) {
            closeQuietly(next);
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception | LinkageError e) {
            AgentLog.warnOnce("engine-close:" + resource.getClass().getName(),
                    "effectful could not stop " + resource.getClass().getSimpleName() + ": " + e);
        }
    }
}

package dev.effectful.agent.installer;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;
import dev.effectful.agent.bridge.Dispatcher;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.log.AgentLog;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Connects the bridge to the engine. The engine (Chronicle, the index replay) starts on a
 * background thread when the first tool class is rewritten, so premain stays cheap and an
 * application without tools never creates a journal; the first tool call waits for it. If the engine never
 * comes up, effectful calls are refused (their intent cannot be journaled) and READ calls run.
 */
final class EngineDispatcher implements Dispatcher {

    private static final long START_WAIT_SECONDS = 60;

    private final CompletableFuture<CallEngine> engine;

    EngineDispatcher(EngineStarter starter) {
        this.engine = starter.engine();
        this.starter = starter;
    }

    private final EngineStarter starter;

    @Override
    public Object enter(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        CallEngine e = engine();
        if (e != null) {
            return e.enter(type, methodAndDescriptor, self, args);
        }
        return isRead(type, methodAndDescriptor) ? null : new Refusal(new ToolOutcomeException(Outcome.retryable(
                "journal unavailable: the effectful engine failed to start; the call was not made")));
    }

    @Override
    public boolean skipBody(Object handle) {
        return handle instanceof Refusal || engine.join().skipBody(handle);
    }

    @Override
    public Object exitValue(Object handle, Object returned, Throwable thrown) {
        if (handle instanceof Refusal) {
            return null;
        }
        return engine.join().exit(handle, returned, thrown).value();
    }

    @Override
    public Throwable exitThrown(Object handle) {
        if (handle instanceof Refusal r) {
            return r.error();
        }
        return engine.join().thrown(handle);
    }

    private record Refusal(ToolOutcomeException error) {
    }

    private CallEngine engine() {
        starter.startInBackground();
        try {
            // the first call waits for the journal, but never past its task's deadline
            long wait = Math.min(TimeUnit.SECONDS.toNanos(START_WAIT_SECONDS),
                    dev.effectful.Task.current().map(t -> t.remaining().toNanos()).orElse(Long.MAX_VALUE));
            return engine.get(wait, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            AgentLog.errorOnce("engine-start", "effectful engine failed to start: " + e, e);
            return null;
        }
    }

    private static boolean isRead(Class<?> type, String sig) {
        for (Method m : type.getDeclaredMethods()) {
            EffectfulTool t = m.getAnnotation(EffectfulTool.class);
            if (t != null && sig.startsWith(m.getName() + "(")) {
                return t.kind() == EffectKind.READ;
            }
        }
        return false;
    }
}

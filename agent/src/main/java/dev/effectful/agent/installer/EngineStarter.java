package dev.effectful.agent.installer;

import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.EngineFactory;
import dev.effectful.runtime.log.AgentLog;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** Starts the engine once, off the application's threads, when it is first needed. */
final class EngineStarter {

    private final EffectfulConfig config;
    private final CompletableFuture<CallEngine> engine = new CompletableFuture<>();
    private final AtomicBoolean started = new AtomicBoolean();

    EngineStarter(EffectfulConfig config) {
        this.config = config;
    }

    CompletableFuture<CallEngine> engine() {
        return engine;
    }

    void startInBackground() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                RequiredModules.missing().ifPresent(reason -> {
                    throw new IllegalStateException(reason);
                });
                engine.complete(EngineFactory.create(config));
            } catch (Throwable e) {
                AgentLog.errorOnce("engine-start", "effectful engine failed to start; effectful calls are refused", e);
                engine.completeExceptionally(e);
            }
        }, "effectful-start");
        t.setDaemon(true);
        // Chronicle finds some of its classes through the context loader; a thread started from
        // the attach listener has none, and the application's loader cannot see Chronicle
        t.setContextClassLoader(EngineStarter.class.getClassLoader());
        t.start();
    }
}

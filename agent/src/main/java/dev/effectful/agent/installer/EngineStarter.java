package dev.effectful.agent.installer;

import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.EngineFactory;
import dev.effectful.runtime.log.AgentLog;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts the engine once, off the application's threads, when it is first needed. A latch and two
 * volatile fields rather than a CompletableFuture: this is built in premain, and CompletableFuture
 * would load ForkJoinPool there, which would then have to be retransformed at once.
 */
final class EngineStarter {

    private final EffectfulConfig config;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile CallEngine engine;
    private volatile Throwable failure;

    EngineStarter(EffectfulConfig config) {
        this.config = config;
    }

    /** The engine if it has started; null while it starts or after it failed. */
    CallEngine ready() {
        return engine;
    }

    /** Waits at most {@code nanos} for the start; null if it failed or is still going. */
    CallEngine await(long nanos) throws InterruptedException {
        done.await(nanos, TimeUnit.NANOSECONDS);
        return engine;
    }

    boolean finished() {
        return done.getCount() == 0;
    }

    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
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
                engine = EngineFactory.create(config);
            } catch (Throwable e) {
                failure = e;
                AgentLog.errorOnce("engine-start", "effectful engine failed to start; effectful calls are refused", e);
            } finally {
                done.countDown();
            }
        }, "effectful-start");
        t.setDaemon(true);
        // Chronicle finds some of its classes through the context loader; a thread started from
        // the attach listener has none, and the application's loader cannot see Chronicle
        t.setContextClassLoader(EngineStarter.class.getClassLoader());
        t.start();
    }
}

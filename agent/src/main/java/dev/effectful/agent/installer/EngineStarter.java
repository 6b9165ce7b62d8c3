package dev.effectful.agent.installer;

import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.EngineFactory;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalProblem;
import dev.effectful.core.log.AgentLog;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts the engine once, off the application's threads: at once when a call (or a status read) needs
 * it, or on a restart over an existing journal (its index is the first call's longest wait); at the first
 * tool class of a fresh journal only once the application's own start has quieted ({@link StartupQuiet}).
 * The warm-ups after the open (Jackson, the call path) always wait for the quiet, unless a call came. A latch and
 * volatile fields rather than a CompletableFuture: this is built in premain, and CompletableFuture
 * would load ForkJoinPool there, which would then have to be retransformed at once.
 *
 * <p>While the start cannot happen, {@link #refusal()} says why and calls are refused with it:
 * <ul>
 *   <li>an invalid configuration: for good, nothing is started (no journal directory is made);</li>
 *   <li>another live process holds the journal lock (a rolling deploy): the start thread keeps
 *       watching the lock and takes the journal over, through the normal start path (index
 *       rebuilt first), within {@link #LOCK_POLL_MILLIS} of its release.</li>
 * </ul>
 */
final class EngineStarter {

    /** How often a process waiting for the journal lock looks at it again. */
    static final long LOCK_POLL_MILLIS = 200;

    private final EffectfulConfig config;
    private final StartupQuiet quiet;
    private final AtomicBoolean started = new AtomicBoolean();
    /** Counted down when something waits for the engine: the start stops waiting for the quiet. */
    private final CountDownLatch needed = new CountDownLatch(1);
    /** The open does not wait for the quiet (a restart over an existing journal); the warm-ups still do. */
    private volatile boolean openAtOnce;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile CallEngine engine;
    private volatile Throwable failure;
    private volatile JournalProblem refusal;
    private long releasedAt;

    EngineStarter(EffectfulConfig config) {
        this(config, null);
    }

    /** With {@code quiet} null, a start ahead of need does not wait for the application's start to quiet. */
    EngineStarter(EffectfulConfig config, StartupQuiet quiet) {
        this.config = config;
        this.quiet = quiet;
    }

    /** A starter that never starts: every effectful call is refused with {@code problem}. */
    static EngineStarter refusing(JournalProblem problem) {
        EngineStarter s = new EngineStarter(null);
        s.refusal = problem;
        s.started.set(true);
        s.done.countDown();
        return s;
    }

    /** The engine if it has started; null while it starts, waits for the journal, or after it failed. */
    CallEngine ready() {
        return engine;
    }

    /** Waits at most {@code nanos} for the start; null if it failed, is still going, or waits for the lock. */
    CallEngine await(long nanos) throws InterruptedException {
        done.await(nanos, TimeUnit.NANOSECONDS);
        return engine;
    }

    /** True once the first start attempt came to an end (an engine, a failure, or a wait for the lock). */
    boolean finished() {
        return done.getCount() == 0;
    }

    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** Why effectful calls are refused while there is no engine, when the reason is known. */
    Optional<JournalProblem> refusal() {
        return engine != null ? Optional.empty() : Optional.ofNullable(refusal);
    }

    /** Starts now, or hurries a start that waits for the quiet: a call or a status read needs the engine. */
    void startInBackground() {
        needed.countDown();
        launch();
    }

    /** Starts once the application's own start has quieted, or at once if something needs the engine first. */
    void startAhead() {
        launch();
    }

    /**
     * Opens the journal and loads its index now, beside the application's start: a restart's first call
     * would otherwise wait for the whole index. The warm-ups after it still wait for the quiet.
     */
    void startOpeningNow() {
        openAtOnce = true;
        launch();
    }

    private void launch() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(this::start, "effectful-start");
        t.setDaemon(true);
        // Chronicle finds some of its classes through the context loader; a thread started from
        // the attach listener has none, and the application's loader cannot see Chronicle
        t.setContextClassLoader(EngineStarter.class.getClassLoader());
        t.start();
    }

    private void start() {
        try {
            if (quiet != null && !openAtOnce) {
                quiet.await(needed, "starts its engine");
            }
            RequiredModules.missing().ifPresent(reason -> {
                throw new IllegalStateException(reason);
            });
            // the classifier loads on a second core while this thread opens Chronicle (Jackson waits for a value that needs it)
            background("effectful-start-warmup", EngineFactory::warmUpInMemory);
            while (true) {
                try {
                    engine = EngineFactory.open(config);
                    if (refusal != null) {
                        AgentLog.info("effectful took over the journal " + config.journalDir() + " in "
                                + (System.nanoTime() - releasedAt) / 1_000_000 + " ms from seeing it released");
                    }
                    refusal = null;
                    background("effectful-call-warmup", this::warmUpWhenQuiet);
                    return;
                } catch (JournalLock.JournalLockedException held) {
                    awaitRelease(held);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            refusal = null;
            failure = e;
            AgentLog.errorOnce("engine-start", "effectful engine failed to start; effectful calls are refused", e);
        } finally {
            done.countDown();
        }
    }

    /** Jackson (when a tool needs it) and the call path, once the application's start has quieted or a call came. */
    private void warmUpWhenQuiet() {
        try {
            if (quiet != null) {
                quiet.await(needed, "warms up its call path");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        JsonWarmUp.engineOpened();
        EngineFactory.warmUpCallPath(config);
    }

    /** On its own thread so that noticing the release is never delayed by it. */
    private void warmUpInBackground() {
        background("effectful-takeover-warmup", () -> EngineFactory.warmUpForTakeover(config));
    }

    private static void background(String name, Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.setContextClassLoader(EngineStarter.class.getClassLoader());
        t.start();
    }

    /**
     * Refuses calls (retryable, after a second) naming the holder until it lets go. The first call
     * waiting for the start is released at once: a rolling deploy may hold the lock for minutes.
     * Meanwhile the start path is warmed up, so the takeover itself costs little more than the
     * index rebuild.
     */
    private void awaitRelease(JournalLock.JournalLockedException held) throws InterruptedException {
        String holder = held.holderPid();
        refusal = new JournalProblem(JournalProblem.Cause.LOCK_HELD, "journal unavailable: " + held.getMessage()
                + "; this process takes the journal over when pid " + holder + " exits");
        AgentLog.warn("effectful: the journal " + config.journalDir() + " is in use by pid " + holder + "; effectful"
                + " calls are refused (retryable) until it is released, then this process takes it over");
        done.countDown();
        warmUpInBackground();
        while (JournalLock.isHeld(config.journalDir())) {
            Thread.sleep(LOCK_POLL_MILLIS);
        }
        releasedAt = System.nanoTime();
        refusal = new JournalProblem(JournalProblem.Cause.LOCK_HELD, "journal unavailable: pid " + holder
                + " released the journal " + config.journalDir() + " and this process is taking it over (rebuilding"
                + " its intent index)");
    }
}

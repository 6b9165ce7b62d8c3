package dev.effectful.agent.installer;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;
import dev.effectful.agent.bridge.Dispatcher;
import dev.effectful.runtime.classify.Classification;
import dev.effectful.runtime.classify.Classifier;
import dev.effectful.runtime.classify.ToolOverrides;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.JournalRefusal;
import dev.effectful.runtime.engine.StartWaits;
import dev.effectful.core.journal.JournalProblem;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.log.AgentLog;
import dev.effectful.runtime.tool.ToolMethods;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Connects the bridge to the engine. The engine (Chronicle, the index replay) starts on a
 * background thread when the first class naming a tool loads (or at premain's end over an existing
 * journal), so premain stays cheap and an application without tools never creates a journal; the
 * first tool call waits for it, and its task's budget gets that wait back ({@link StartWaits}). If the engine never
 * comes up, effectful calls are refused (their intent cannot be journaled) and READ calls run: for
 * good on a configuration error, retryably while another process holds the journal.
 */
final class EngineDispatcher implements Dispatcher {

    /** Without a task budget, how long a call waits for the index rebuild of a large journal. */
    private static final long START_WAIT_WITHOUT_BUDGET_SECONDS = 300;

    /**
     * At most this much of a call's wait for the engine's start is not charged to its task's budget:
     * more than a cold JVM's start on a loaded machine, less than a large journal's index rebuild.
     */
    static final long START_CREDIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final EngineStarter starter;

    EngineDispatcher(EngineStarter starter) {
        this.starter = starter;
    }

    @Override
    public Object enter(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        try {
            return enterOrRefuse(type, methodAndDescriptor, self, args);
        } catch (Throwable t) {
            ForeignApi foreign = ForeignApi.of(type).orElse(null);
            if (foreign != null) {
                // no retry can fix a second copy of the API: permanent, naming the jar and the fix
                JournalProblem problem = foreign.problem(type);
                AgentLog.errorOnce("foreign-api:" + foreign.loader(), problem.message(), null);
                return ForeignApi.isRead(type, methodAndDescriptor) ? null : new Refusal(JournalRefusal.outcome(problem),
                        methodAndDescriptor.endsWith(")Ldev/effectful/Outcome;"));
            }
            // the advice would swallow this and run the body unguarded: an effectful call must not
            AgentLog.errorOnce("dispatch", "effectful failed before a call: " + t, t);
            return isRead(type, methodAndDescriptor) ? null : new Refusal(JournalRefusal.outcome(new JournalProblem(JournalProblem.Cause.OTHER,
                    "journal unavailable: effectful failed before the call (" + t + ")")),
                    methodAndDescriptor.endsWith(")Ldev/effectful/Outcome;"));
        }
    }

    @Override
    public Object enterAsync(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        try {
            CallEngine e = engine();
            if (e != null) {
                return e.enterAsync(type, methodAndDescriptor, self, args);
            }
            return enterOrRefuse(type, methodAndDescriptor, self, args);
        } catch (Throwable t) {
            AgentLog.errorOnce("dispatch", "effectful failed before a call: " + t, t);
            return isRead(type, methodAndDescriptor) ? null : new Refusal(JournalRefusal.outcome(new JournalProblem(JournalProblem.Cause.OTHER,
                    "journal unavailable: effectful failed before the call (" + t + ")")), false);
        }
    }

    @Override
    public Object exitValueAsync(Object handle, Object returned, Throwable thrown) {
        if (handle instanceof Refusal r) {
            return null;
        }
        return starter.ready().exitAsync(handle, returned, thrown).value();
    }

    private Object enterOrRefuse(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        CallEngine e = engine();
        if (e != null) {
            return e.enter(type, methodAndDescriptor, self, args);
        }
        boolean returnsOutcome = methodAndDescriptor.endsWith(")Ldev/effectful/Outcome;");
        EffectfulTool read = readTool(type, methodAndDescriptor);
        if (read != null) {
            // the body runs unjournaled; what it throws is still answered as docs/OUTCOMES.md says (never as itself)
            return new UnjournaledRead(ToolOverrides.of(read), returnsOutcome);
        }
        JournalProblem known = starter.refusal().orElse(null);
        if (known != null) {
            // a configuration error (permanent) or a journal another process holds (retryable, 1 s)
            return new Refusal(JournalRefusal.outcome(known), returnsOutcome);
        }
        String why = starter.finished() ? "the effectful engine failed to start (" + startFailure() + ")"
                : "the effectful engine is still rebuilding its intent index from the journal and the task budget ran out";
        return new Refusal(JournalRefusal.outcome(new JournalProblem(JournalProblem.Cause.OTHER, "journal unavailable: " + why)),
                returnsOutcome);
    }

    @Override
    public Object[] arguments(Object handle, Object[] original) {
        return handle instanceof Refusal || handle instanceof UnjournaledRead ? original
                : starter.ready().arguments(handle, original);
    }

    @Override
    public boolean skipBody(Object handle) {
        if (handle instanceof UnjournaledRead) {
            return false;
        }
        return handle instanceof Refusal || starter.ready().skipBody(handle);
    }

    @Override
    public Object exitValue(Object handle, Object returned, Throwable thrown) {
        if (handle instanceof Refusal r) {
            // a tool declared to return Outcome gets its failure as an Outcome, as from the engine
            return r.returnsOutcome() ? r.outcome() : null;
        }
        if (handle instanceof UnjournaledRead u) {
            return u.exit(returned, thrown);
        }
        return starter.ready().exit(handle, returned, thrown).value();
    }

    @Override
    public Throwable exitThrown(Object handle) {
        if (handle instanceof Refusal r) {
            return r.returnsOutcome() ? null : new ToolOutcomeException(r.outcome());
        }
        if (handle instanceof UnjournaledRead u) {
            return u.thrown;
        }
        return starter.ready().thrown(handle);
    }

    private record Refusal(Outcome<?> outcome, boolean returnsOutcome) {
    }

    /**
     * A READ call that runs while the engine is not there (a configuration error, a journal another process
     * holds): nothing is journaled, but a failure still reaches the caller as the engine would shape it, an
     * {@code Outcome} or a {@link ToolOutcomeException} with the original as its cause, classified by the
     * default rules and the tool's own overrides. Errors (out of memory...) pass as they are.
     */
    private static final class UnjournaledRead {
        private final ToolOverrides overrides;
        private final boolean returnsOutcome;
        private Throwable thrown;

        UnjournaledRead(ToolOverrides overrides, boolean returnsOutcome) {
            this.overrides = overrides;
            this.returnsOutcome = returnsOutcome;
        }

        Object exit(Object returned, Throwable t) {
            if (t == null || t instanceof ToolOutcomeException || !(t instanceof Exception)) {
                thrown = t;
                return returned;
            }
            Classification c = Classifier.defaults().classify(t, EffectKind.READ, overrides);
            Outcome<Object> failure = new Outcome<>(c.status(), c.effect(), null, null, c.retryAfterS(), null,
                    c.message() + " (not journaled: the effectful engine is not running)", null, List.of());
            if (returnsOutcome) {
                return failure;
            }
            thrown = new ToolOutcomeException(failure, t);
            return null;
        }
    }

    private CallEngine engine() {
        starter.startInBackground();
        CallEngine ready = starter.ready();
        if (ready != null || starter.finished()) {
            return ready;
        }
        // The first calls wait for the engine (the journal opened, the index rebuilt). That wait is the
        // agent's start-up, not the task's work: up to START_CREDIT of it is given back to the task's
        // budget, so a task opened first thing in main is not refused or cut short for it. Past that
        // (a large journal's rebuild), the wait is the task's own and ends at its deadline.
        dev.effectful.Task task = dev.effectful.Task.current().orElse(null);
        long t0 = System.nanoTime();
        long remaining = task == null ? 0 : StartWaits.remainingNanos(task, t0);
        // a task with nothing left is refused for its budget at once, as before: nothing to give back
        long waitNanos = task == null ? TimeUnit.SECONDS.toNanos(START_WAIT_WITHOUT_BUDGET_SECONDS)
                : remaining <= 0 ? 0 : StartWaits.saturatedSum(remaining, START_CREDIT_NANOS);
        try {
            return starter.await(waitNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            StartWaits.credit(task, t0, remaining, START_CREDIT_NANOS);
        }
    }

    private String startFailure() {
        return starter.failure().map(cause -> cause.getMessage() == null ? cause.toString() : cause.getMessage())
                .orElse("not started in time");
    }

    /** Its own {@code @EffectfulTool} or the one it inherits when that is a READ, else null. */
    private static EffectfulTool readTool(Class<?> type, String sig) {
        try {
            return ToolMethods.annotationOf(type, sig).filter(t -> Kind.alwaysRuns(t.kind().name())).orElse(null);
        } catch (RuntimeException | LinkageError unreadable) {
            return null;
        }
    }

    /** Its own annotation or the one it inherits; a method that cannot be read is not a READ. */
    private static boolean isRead(Class<?> type, String sig) {
        try {
            return ToolMethods.annotationOf(type, sig).map(t -> Kind.alwaysRuns(t.kind().name())).orElse(false);
        } catch (RuntimeException | LinkageError unreadable) {
            return false;
        }
    }
}

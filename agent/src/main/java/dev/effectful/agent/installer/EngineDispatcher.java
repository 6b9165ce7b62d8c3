package dev.effectful.agent.installer;

import dev.effectful.EffectKind;
import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;
import dev.effectful.agent.bridge.Dispatcher;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.StartWaits;
import dev.effectful.runtime.journal.JournalProblem;
import dev.effectful.runtime.log.AgentLog;
import dev.effectful.runtime.tool.ToolMethods;

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
            // the advice would swallow this and run the body unguarded: an effectful call must not
            AgentLog.errorOnce("dispatch", "effectful failed before a call: " + t, t);
            return isRead(type, methodAndDescriptor) ? null : new Refusal(new JournalProblem(JournalProblem.Cause.OTHER,
                    "journal unavailable: effectful failed before the call (" + t + ")").refusal(),
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
            return isRead(type, methodAndDescriptor) ? null : new Refusal(new JournalProblem(JournalProblem.Cause.OTHER,
                    "journal unavailable: effectful failed before the call (" + t + ")").refusal(), false);
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
        if (isRead(type, methodAndDescriptor)) {
            return null;
        }
        boolean returnsOutcome = methodAndDescriptor.endsWith(")Ldev/effectful/Outcome;");
        JournalProblem known = starter.refusal().orElse(null);
        if (known != null) {
            // a configuration error (permanent) or a journal another process holds (retryable, 1 s)
            return new Refusal(known.refusal(), returnsOutcome);
        }
        String why = starter.finished() ? "the effectful engine failed to start (" + startFailure() + ")"
                : "the effectful engine is still rebuilding its intent index from the journal and the task budget ran out";
        return new Refusal(new JournalProblem(JournalProblem.Cause.OTHER, "journal unavailable: " + why).refusal(),
                returnsOutcome);
    }

    @Override
    public Object[] arguments(Object handle, Object[] original) {
        return handle instanceof Refusal ? original : starter.ready().arguments(handle, original);
    }

    @Override
    public boolean skipBody(Object handle) {
        return handle instanceof Refusal || starter.ready().skipBody(handle);
    }

    @Override
    public Object exitValue(Object handle, Object returned, Throwable thrown) {
        if (handle instanceof Refusal r) {
            // a tool declared to return Outcome gets its failure as an Outcome, as from the engine
            return r.returnsOutcome() ? r.outcome() : null;
        }
        return starter.ready().exit(handle, returned, thrown).value();
    }

    @Override
    public Throwable exitThrown(Object handle) {
        if (handle instanceof Refusal r) {
            return r.returnsOutcome() ? null : new ToolOutcomeException(r.outcome());
        }
        return starter.ready().thrown(handle);
    }

    private record Refusal(Outcome<?> outcome, boolean returnsOutcome) {
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

    /** Its own annotation or the one it inherits; a method that cannot be read is not a READ. */
    private static boolean isRead(Class<?> type, String sig) {
        try {
            return ToolMethods.annotationOf(type, sig).map(t -> t.kind() == EffectKind.READ).orElse(false);
        } catch (RuntimeException | LinkageError unreadable) {
            return false;
        }
    }
}

package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Status;
import dev.effectful.runtime.classify.Classifier;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.runtime.events.Events;
import dev.effectful.core.journal.ResultShape;
import dev.effectful.core.journal.ResultShapes;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.ResolveHint;
import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.IntentStoreProviders;
import dev.effectful.runtime.tool.AsyncShape;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.runtime.tool.ToolMethods;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.core.values.ResultCodec;

/**
 * Runs the protocol around every tool call, in three stages and always in this order:
 * {@link Admission} (the intent key, the task's budget, the same intent running here, the re-entry
 * table), then {@link Execution} (the probe, or the intent record and the body under its deadline),
 * then {@link Conclusion} (classify, store the result, the outcome record, the answer). A call the
 * first two stages answer without its body ({@link Replays}, {@link Refusals}) skips the rest.
 *
 * <p>Never throws to the advice: an internal failure refuses an effectful call (its intent could
 * not be journaled, so it must not run) and lets a READ call run untouched.
 */
public final class CallEngine implements AutoCloseable {

    private final EffectfulConfig config;
    private final JournalAccess journal;
    private final IntentStore store;
    private final ToolMethods tools;
    private final ArgsRenderer argsRenderer;
    private final InFlightCalls inFlight = new InFlightCalls();
    private final BodiesOnThread bodies = new BodiesOnThread();
    /** A person's verdicts handed over by the CLI while this process writes the journal; null: no journal. */
    private final ResolutionRequests resolutions;
    private final Refusals refusals;
    private final CallEvents events;
    private final Admission admission;
    private final Conclusion conclusion;
    private final AsyncCalls asyncCalls;
    /** The background threads this engine started; stopped by {@link #close}. */
    private final EngineResources owned = new EngineResources();

    public CallEngine(EffectfulConfig config, JournalAccess journal, IntentStore store, ArgsRenderer argsRenderer,
                      ResultCodec results, Classifier classifier) {
        this(config, journal, store, argsRenderer, results, classifier, Events.standard(store::unresolvedCount));
    }

    /** An engine whose calls' steps go to {@code events} (the log line, JFR, the application's libraries). */
    public CallEngine(EffectfulConfig config, JournalAccess journal, IntentStore store, ArgsRenderer argsRenderer,
                      ResultCodec results, Classifier classifier, Events events) {
        this.config = config;
        this.journal = journal;
        this.store = store;
        this.argsRenderer = argsRenderer;
        boolean local = journal.available() && journal.journal().directory() != null;
        // the journal directory learns each tool's result shape, so resolve --result is checked with no writer up
        this.tools = local ? new ToolMethods(tool -> rememberShape(journal.journal().directory(), tool)) : new ToolMethods();
        // the paste-ready resolve command held intents name
        ResolveHint hint = !config.store().isLocal()
                ? ResolveHint.forStore(config.store().kind(), IntentStoreProviders.find(config.store().kind())
                        .map(IntentStoreProvider::reachKeys).orElse(java.util.List.of()))
                : local ? ResolveHint.forJournal(journal.journal().directory()) : ResolveHint.generic();
        hint = hint.withOperatorInAnswer(config.heldMessage() == EffectfulConfig.HeldMessage.OPERATOR);
        this.resolutions = local ? new ResolutionRequests(journal.journal().directory(), journal, store, results,
                inFlight::isRunning) : null;
        OutcomeShaper shaper = new OutcomeShaper(config.failure());
        this.events = new CallEvents(events);
        CallRecords records = new CallRecords(journal, store, this.events);
        ProbeRunner probes = new ProbeRunner(results);
        this.refusals = new Refusals(records, shaper, inFlight);
        Replays replays = new Replays(records, results, shaper, inFlight, hint);
        HeldIntents held = new HeldIntents(hint);
        Shared shared = new Shared(records, store, argsRenderer, inFlight, refusals, replays, hint, held);
        Execution execution = new Execution(shared, probes, shaper);
        CallSteps steps = new CallSteps.Of(refusals, inFlight, execution, records, store, probes, argsRenderer,
                classifier, shaper);
        BatchProtocol batches = new BatchProtocol(steps);
        this.admission = new Admission(shared, batches, resolutions, execution);
        admission.approvals(config.approvals(), config.store().isLocal());
        if (local && dev.effectful.core.keys.KeyFormat.holdsEarlierKeys(journal.journal().directory())) {
            admission.journalHoldsEarlierKeys();
        }
        this.conclusion = new Conclusion(steps, results, replays, resolutions, batches, held);
        this.asyncCalls = new AsyncCalls(conclusion, inFlight, records);
        owned.own(execution.interrupter());
        if (resolutions != null) {
            owned.own(resolutions);
        }
    }

    /** Starts watching for resolutions given with {@code journal resolve} while this process runs. */
    public void startResolutionWatch() {
        if (resolutions != null) {
            resolutions.start();
        }
    }

    /**
     * Called before the body. The returned handle says whether the body runs; null: it runs as part of an
     * enclosing guarded call of the same intent. Throws when the tool cannot be read, so the caller refuses it.
     */
    public Object enter(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        ToolMethod tool = resolve(type, methodAndDescriptor);
        if (bodies.innermost() != null && admission.partOfEnclosingCall(bodies.innermost(), tool, args)) {
            // a proxy or subclass in front of this method already guards this intent: its attempt runs on
            AgentLog.debug("effectful: " + tool + " runs inside the enclosing guarded call of the same intent");
            return null;
        }
        return admitted(new Call(tool, self, args), null);
    }

    /**
     * Admission, and execution up to the body (the intent record, the attempt, the deadline); for an
     * async call ({@code jvmArgs} non-null) also what follows its work. Null when a READ call runs
     * unguarded after an internal failure; otherwise the call, answered or ready for its body.
     */
    private Call admitted(Call call, Object[] jvmArgs) {
        ToolMethod tool = call.tool;
        events.begin(call);
        try {
            call.redactWith(Redactor.of(argsRenderer.fingerprinter(), call.args, tool.params()));
            admission.admit(call);
            if (jvmArgs != null) {
                asyncCalls.admitted(call, jvmArgs);
            }
        } catch (RuntimeException | LinkageError e) {
            AgentLog.errorOnce("enter:" + tool, "internal error before " + tool.verb() + ": " + e, e);
            if (call.flight() != null) {
                inFlight.release(call.intentKey(), call.flight(), null);
                call.leaveFlight();
            }
            if (tool.isRead()) {
                events.abandon(call);
                return null;
            }
            refusals.refuse(call, Status.RETRYABLE, EffectApplied.NO, null, "effectful internal error before the call: "
                    + e + "; the call was not made");
        }
        if (!call.bodySkipped()) {
            bodies.entered(call);
        }
        return call;
    }

    private static void rememberShape(java.nio.file.Path dir, ToolMethod tool) {
        try {
            ResultShapes.remember(dir, tool.verb(), ResultShape.of(VerdictChecks.valueType(tool)));
        } catch (java.io.IOException | RuntimeException e) {
            // only the CLI's early check of --result is lost: the writer still checks a verdict it is handed
            AgentLog.warnOnce("result-shapes", "effectful could not record what " + tool.verb() + " returns in "
                    + dir + " (" + e.getMessage() + "); journal resolve --result is then checked only while a writer runs");
        }
    }

    private ToolMethod resolve(Class<?> type, String methodAndDescriptor) {
        try {
            return tools.resolve(type, methodAndDescriptor);
        } catch (RuntimeException | LinkageError e) {
            // not knowing the tool means not knowing its kind: refused by the caller (a READ still runs there)
            String why = "effectful cannot read the tool " + type.getName() + "." + methodAndDescriptor + " (" + e
                    + "); its calls are refused";
            AgentLog.errorOnce("resolve:" + type.getName() + methodAndDescriptor, why, e);
            throw new IllegalStateException(why, e);
        }
    }

    /**
     * {@link #enter} for a tool the weaver saw return a promise ({@link AsyncShape}): a future, a Mono,
     * or a Kotlin suspend function. Null when the body runs untouched: a READ tool of a refused shape,
     * a suspend function's state machine resuming itself (not a call), or part of an enclosing call.
     */
    public Object enterAsync(Class<?> type, String methodAndDescriptor, Object self, Object[] args) {
        ToolMethod tool = resolve(type, methodAndDescriptor);
        AsyncShape shape = tool.async();
        if (shape == null) {
            return enter(type, methodAndDescriptor, self, args);
        }
        Object[] jvmArgs = args == null ? new Object[0] : args;
        if (shape.refused()) {
            return tool.isRead() ? null : refuseShape(tool, self, jvmArgs, shape);
        }
        Object continuation = null;
        KotlinCoroutines kotlin = null;
        Object[] callerArgs = jvmArgs;
        if (shape == AsyncShape.SUSPEND) {
            continuation = jvmArgs[jvmArgs.length - 1];
            if (KotlinCoroutines.isResumption(continuation)) {
                return null;
            }
            // throws when Kotlin cannot be reached: refused by the caller before any intent
            kotlin = KotlinCoroutines.of(tool.method().getDeclaringClass());
            callerArgs = java.util.Arrays.copyOf(jvmArgs, jvmArgs.length - 1);
        }
        if (bodies.innermost() != null && admission.partOfEnclosingCall(bodies.innermost(), tool, callerArgs)) {
            return null;
        }
        Call call = new Call(tool, self, callerArgs);
        call.promised(new AsyncCall(shape, continuation, kotlin));
        return admitted(call, jvmArgs);
    }

    /** An effectful tool returning a promise the agent cannot follow: refused at every call, its body never runs. */
    private Call refuseShape(ToolMethod tool, Object self, Object[] args, AsyncShape shape) {
        Call call = new Call(tool, self, args);
        events.begin(call);
        call.inTask(TaskContext.current());
        refusals.refuse(call, Status.PERMANENT, EffectApplied.NO, null,
                shape.refusal(tool.method().getDeclaringClass().getName() + "." + tool.method().getName()));
        return call;
    }

    /** {@link #exit} for a call {@link #enterAsync} admitted: the promise the caller gets, or the answer now. */
    public Completion exitAsync(Object handle, Object returned, Throwable thrown) {
        Call call = (Call) handle;
        if (call.bodySkipped()) {
            return call.completion();
        }
        bodies.left(call);
        // the body's synchronous part is over: its thread's attempt ends here, the work's outcome comes later
        if (call.attemptScope() != null) {
            call.attemptScope().close();
            call.unbindAttempt();
        }
        Completion result;
        try {
            result = asyncCalls.exit(call, returned, thrown);
        } catch (RuntimeException | LinkageError e) {
            AgentLog.errorOnce("exit:" + call.tool, "internal error after " + call.tool.verb() + ": " + e, e);
            result = new Completion(returned, thrown);
            events.abandon(call);
        }
        call.conclude(result);
        return result;
    }

    /** The arguments the body runs with: for a batch, only the items still to send. */
    public Object[] arguments(Object handle, Object[] original) {
        Object[] replaced = ((Call) handle).replacedArgs();
        return replaced == null ? original : replaced;
    }

    /** True when the call was answered before its body (a replay, a refusal, a probe that found it). */
    public boolean skipBody(Object handle) {
        return ((Call) handle).bodySkipped();
    }

    /** Called after the body (or after a skipped body); returns what the caller receives. */
    public Completion exit(Object handle, Object returned, Throwable thrown) {
        Call call = (Call) handle;
        if (call.bodySkipped()) {
            return call.completion();
        }
        bodies.left(call);
        Completion result;
        try {
            result = conclusion.conclude(call, returned, thrown);
        } catch (RuntimeException | LinkageError e) {
            AgentLog.errorOnce("exit:" + call.tool, "internal error after " + call.tool.verb() + ": " + e, e);
            // the body's own exception, still under the call's @Redact rule: a failed conclusion is no side door
            result = new Completion(returned, call.redactor().throwableOrBare(thrown));
            events.abandon(call);
        }
        if (call.flight() != null) {
            inFlight.release(call.intentKey(), call.flight(), call.forWaiters() != null ? call.forWaiters() : result);
            call.leaveFlight();
        }
        call.conclude(result);
        return result;
    }

    /** What to throw for a call whose {@link #exit} has run; null means return its value. */
    public Throwable thrown(Object handle) {
        Completion c = ((Call) handle).completion();
        return c == null ? null : c.thrown();
    }

    public EffectfulConfig config() {
        return config;
    }

    public IntentStore store() {
        return store;
    }

    /** The journal as a health check sees it: why new intents would be refused, and the room left. */
    public JournalAccess journalAccess() {
        return journal;
    }

    /** Hands over something this engine's builder started for it, to be stopped by {@link #close}. */
    void own(AutoCloseable resource) {
        owned.own(resource);
    }

    /**
     * Stops the engine's background threads (and a shared store's). The journal stays open: it
     * belongs to whoever opened it, and calls still under way finish their records.
     */
    @Override
    public void close() {
        owned.close();
    }
}

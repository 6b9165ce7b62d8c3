package dev.effectful.junit;

import dev.effectful.EffectApplied;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Items;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.Task;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.Kind;
import dev.effectful.runtime.journal.ProbeResult;
import dev.effectful.runtime.journal.RecordType;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Runs the six failures against one tool method of the user's class, under the real engine: what
 * to call and how to count effects come from the user, the faults and verdicts from the kit.
 *
 * <pre>{@code
 * kit.tool(MailTools.class, () -> new MailTools(mail.uri()))
 *    .call(t -> t.sendEmail("order-1", "Order confirmed", "Thanks!"))
 *    .rephrased(t -> t.sendEmail("order-1", "Your order is confirmed", "Thank you!"))
 *    .effects(mailbox::size)
 *    .faultsAt(mail)
 *    .run().assertPassed();
 * }</pre>
 */
public final class ToolCheck<T> {

    /** Budget of the slow-success task, and when in it the slow effect lands. */
    static final Duration SLOW_BUDGET = Duration.ofMillis(2000);
    static final Duration SLOW_DELAY = Duration.ofMillis(1300);
    static final long RATE_LIMIT_SECONDS = 1;
    /**
     * How long past its deadline a body may still run before it counts as outliving it: the alarm fires
     * within 5 ms, and a body that lets the interrupt end it is out within a few more.
     */
    static final Duration OUTLIVED_AFTER = Duration.ofMillis(300);
    /** How long the kit waits for a body past its deadline, and for a late request to land, before judging. */
    static final Duration STRAGGLER_WAIT = Duration.ofMillis(1500);
    static final Duration TASK_BUDGET = Duration.ofSeconds(30);

    private final EffectfulKit kit;
    private final Class<T> type;
    private final Supplier<? extends T> factory;
    private ToolCall<T> call;
    private ToolCall<T> rephrased;
    private IntSupplier effects;
    private FaultPoint faults;
    private String invalidItem;
    private boolean heldIsAcceptable;
    private Duration taskBudget = TASK_BUDGET;
    private Set<Check> only = EnumSet.allOf(Check.class);

    ToolCheck(EffectfulKit kit, Class<T> type, Supplier<? extends T> factory) {
        this.kit = kit;
        this.type = type;
        this.factory = factory;
    }

    /** The call the model makes. */
    public ToolCheck<T> call(ToolCall<T> call) {
        this.call = call;
        return this;
    }

    /** The same intent as the model would retry it: same key arguments, free text rephrased. */
    public ToolCheck<T> rephrased(ToolCall<T> rephrased) {
        this.rephrased = rephrased;
        return this;
    }

    /**
     * A batch call whose items include {@code invalidItemId}, an item the receiver rejects for good
     * (the partial-batch check). Replaces {@link #call}.
     */
    public ToolCheck<T> batch(ToolCall<T> batchCall, String invalidItemId) {
        this.call = batchCall;
        this.invalidItem = invalidItemId;
        return this;
    }

    /** How many effects the receiver applied so far (your fake's count). */
    public ToolCheck<T> effects(IntSupplier effects) {
        this.effects = effects;
        return this;
    }

    /** Where the tool meets its receiver: the kit's {@link FakeHttpService} or your fake's {@link FakeHooks}. */
    public ToolCheck<T> faultsAt(FaultPoint point) {
        this.faults = point;
        return this;
    }

    /**
     * For a tool that truly cannot look its effect up: being held for a person after a crash passes
     * the kill check instead of failing it.
     */
    public ToolCheck<T> heldForAPersonIsAcceptable() {
        this.heldIsAcceptable = true;
        return this;
    }

    /**
     * The budget of the tasks the checks other than slow success run in (30 s): the deadline whose alarm
     * a simulated crash must not leave armed. Shorter in the kit's own hygiene test, so it need not wait 30 s.
     */
    ToolCheck<T> taskBudget(Duration budget) {
        this.taskBudget = budget;
        return this;
    }

    /** Runs only these checks (the audit always runs); the others are reported skipped. For the kit's own tests. */
    ToolCheck<T> only(Check first, Check... more) {
        this.only = EnumSet.of(first, more);
        return this;
    }

    private Verdict ifWanted(Check c, String tool, Supplier<Verdict> check) {
        return only.contains(c) ? check.get() : Verdict.skipped(c, tool, "not selected in this run");
    }

    /** Runs the audit and every check that applies to the tool's kind; never throws for a failing verdict. */
    public Report run() {
        Objects.requireNonNull(call, "say how to call the tool: .call(t -> t.myTool(...))");
        Objects.requireNonNull(effects, "say how to count effects at the receiver: .effects(fake::count)");
        Objects.requireNonNull(faults, "say where the tool meets its receiver: .faultsAt(kit.httpService(...)) or"
                + " .faultsAt(kit.hooks())");
        long started = System.nanoTime();
        Method method = discover();
        EffectfulTool spec = GuardedViews.toolAnnotation(type, method).orElseThrow();
        String tool = ToolAudit.name(GuardedViews.toolMethod(type, method).orElseThrow());
        boolean batch = java.util.Arrays.stream(method.getParameters()).anyMatch(p -> p.isAnnotationPresent(Items.class));
        boolean read = Kind.alwaysRuns(spec.kind().name());
        List<Verdict> verdicts = new ArrayList<>(ToolAudit.audit(GuardedViews.toolMethod(type, method).orElseThrow()
                .getDeclaringClass(), GuardedViews.toolMethod(type, method).orElseThrow(), spec));
        if (batch) {
            verdicts.add(invalidItem == null ? Verdict.skipped(Check.PARTIAL_BATCH, tool, "a batch tool: give"
                    + " .batch(call, invalidItemId) to run the partial-batch check")
                    : ifWanted(Check.PARTIAL_BATCH, tool, () -> partialBatch(tool)));
            for (Check c : List.of(Check.KILL_MID_CALL, Check.DUPLICATE_DELIVERY, Check.ERROR_IN_SUCCESS,
                    Check.SLOW_SUCCESS, Check.RATE_LIMIT)) {
                verdicts.add(Verdict.skipped(c, tool, "run on single calls; this is a batch tool (see partial batch)"));
            }
        } else {
            if (read) {
                verdicts.add(ifWanted(Check.DUPLICATE_DELIVERY, tool, () -> readOnly(tool)));
                for (Check c : List.of(Check.KILL_MID_CALL, Check.SLOW_SUCCESS, Check.RATE_LIMIT)) {
                    verdicts.add(Verdict.skipped(c, tool, "a READ tool runs on every call by design (a price must be fresh)"));
                }
            } else {
                verdicts.add(ifWanted(Check.DUPLICATE_DELIVERY, tool, () -> duplicateDelivery(tool, method, spec, verdicts)));
                verdicts.add(ifWanted(Check.KILL_MID_CALL, tool, () -> killMidCall(tool, spec)));
                verdicts.add(ifWanted(Check.SLOW_SUCCESS, tool, () -> slowSuccess(tool)));
                verdicts.add(ifWanted(Check.RATE_LIMIT, tool, () -> rateLimit(tool)));
            }
            verdicts.add(ifWanted(Check.ERROR_IN_SUCCESS, tool, () -> errorInSuccess(tool, spec, read)));
            verdicts.add(Verdict.skipped(Check.PARTIAL_BATCH, tool, "not a batch tool (no @Items parameter)"));
        }
        verdicts.sort(java.util.Comparator.comparing(Verdict::check));
        return new Report(tool, List.copyOf(verdicts), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** Which tool method {@link #call} uses, found by calling it on a view that only records. */
    private Method discover() {
        Method[] seen = new Method[1];
        Object[][] args = new Object[1][];
        try {
            call.call(GuardedViews.recorder(type, seen, args));
        } catch (Exception | LinkageError ignoredTheValueIsADummy) {
            // the lambda may use the dummy result; only which method it called matters here
        }
        if (seen[0] == null) {
            throw new IllegalArgumentException("the call given to the effectful kit calls no @EffectfulTool method of "
                    + type.getName());
        }
        return seen[0];
    }

    // ------------------------------------------------------------------ the checks

    private Verdict duplicateDelivery(String tool, Method method, EffectfulTool spec, List<Verdict> audit) {
        Scenario s = new Scenario();
        int e0 = effects.getAsInt();
        Seen first;
        Seen second;
        int afterFirst;
        try (Task t = Task.open(s.taskId, taskBudget)) {
            first = Seen.of(call, s.view);
            afterFirst = effects.getAsInt() - e0;
            if (first.ok() && !spec.probe().isEmpty()) {
                audit.add(probeSeesEffect(tool, spec, s));
            }
            second = Seen.of(retry(), s.view);
        }
        awaitIdle(STRAGGLER_WAIT);
        int delta = effects.getAsInt() - e0;
        String happened = "called twice in one task (the second rephrased): " + delta + " effect(s); first "
                + first.describe() + "; second " + second.describe();
        if (deniesEffect(first, afterFirst)) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened + "; the first call's outcome says effect no"
                    + " although the receiver applied " + afterFirst, deniedAdvice(spec));
        }
        if (!first.ok()) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "the first call failed with no fault injected:"
                    + " make the call and the fake succeed before judging retries");
        }
        if (delta > 1) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, keyAdvice(method, s));
        }
        if (delta == 0) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "no effect was counted: .effects(...) must"
                    + " count what the receiver applied");
        }
        if (!second.ok()) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "the repeat must return the original"
                    + " success: a model reading an error retries again");
        }
        if (!Objects.equals(first.payload(), second.payload())) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "the repeat returned a different value: make"
                    + " the return type serializable to JSON and back (a record, a String, a List...) so the stored"
                    + " original can be returned");
        }
        return Verdict.pass(Check.DUPLICATE_DELIVERY, tool, happened);
    }

    /** Why two calls of one intent both ran: the key parameters that differ, or no key at all. */
    private String keyAdvice(Method method, Scenario s) {
        List<CallLog.Entry> entries = s.log.entries();
        Method declared = GuardedViews.toolMethod(type, method).orElseThrow();
        Parameter[] params = declared.getParameters();
        List<String> keyedNone = new ArrayList<>();
        if (entries.size() >= 2) {
            Object[] a = entries.get(0).args();
            Object[] b = entries.get(1).args();
            List<String> differing = new ArrayList<>();
            for (int i = 0; i < params.length; i++) {
                if (params[i].isAnnotationPresent(IntentKey.class)) {
                    keyedNone.add(params[i].getName());
                    if (!Objects.equals(a[i], b[i])) {
                        differing.add(params[i].getName());
                    }
                }
            }
            if (!differing.isEmpty()) {
                return "the intent key is built from " + differing + ", which the rephrased retry changed, so the"
                        + " retry ran as a new intent: remove @IntentKey from free text; key on what identifies the act"
                        + " (an order id, a recipient)";
            }
        }
        if (keyedNone.isEmpty()) {
            return "no parameter is marked @IntentKey, so each call is a new intent: mark the parameter(s) naming what"
                    + " is acted on (an order id, a recipient) with @IntentKey";
        }
        return "the two calls were one intent but both reached the receiver: the receiver applied a repeat the engine"
                + " let through; check that .rephrased(...) keeps the @IntentKey arguments " + keyedNone;
    }

    /** Calls the declared probe right after a real effect: it must find it. */
    private Verdict probeSeesEffect(String tool, EffectfulTool spec, Scenario s) {
        CallLog.Entry e = s.log.entries().get(0);
        Method probe = ToolAudit.find(e.method().getDeclaringClass(), spec.probe(), e.method().getParameterTypes());
        if (probe == null) {
            return Verdict.skipped(Check.AUDIT, tool, "probe " + spec.probe() + " not found (see the audit)");
        }
        Object found;
        try {
            probe.setAccessible(true);
            found = probe.invoke(s.target, e.args());
        } catch (ReflectiveOperationException | RuntimeException ex) {
            Throwable cause = ex instanceof java.lang.reflect.InvocationTargetException ite ? ite.getCause() : ex;
            return Verdict.fail(Check.AUDIT, tool, "probe " + spec.probe() + " threw right after a real effect: " + cause,
                    "make the probe answer (found / absent) for the arguments the tool was called with");
        }
        boolean absent = found == null || found instanceof Optional<?> o && o.isEmpty() || Boolean.FALSE.equals(found);
        if (absent) {
            return Verdict.fail(Check.AUDIT, tool, "probe " + spec.probe() + " answered absent right after the tool's"
                    + " effect landed at the receiver", "the probe cannot see what the body did: look the effect up by"
                    + " what the body sent (the @IntentKey arguments, or the key it passed from"
                    + " Attempt.current().orElseThrow().requestKey())");
        }
        return Verdict.pass(Check.AUDIT, tool, "probe " + spec.probe() + " found the effect right after it landed");
    }

    /**
     * The answer is lost after the effect, the process lives: what the call says must not be "effect no".
     * A tool that maps the client's exception to retryable/no or permanent/no tells the next call the
     * effect did not happen, and the next call runs it again.
     */
    private Verdict lostAnswer(String tool, EffectfulTool spec) {
        Scenario s = new Scenario();
        int e0 = effects.getAsInt();
        Seen seen;
        faults.arm(new Fault.DropAfterEffect(() -> { }));
        try (Task t = Task.open(s.taskId, taskBudget)) {
            seen = Seen.of(call, s.view);
        } finally {
            faults.disarm();
        }
        awaitIdle(STRAGGLER_WAIT);
        int landed = effects.getAsInt() - e0;
        String happened = "the effect landed (" + landed + ") and the connection dropped, the process alive: the call "
                + seen.describe();
        if (deniesEffect(seen, landed)) {
            return Verdict.fail(Check.KILL_MID_CALL, tool, happened, deniedAdvice(spec));
        }
        return Verdict.pass(Check.KILL_MID_CALL, tool, happened);
    }

    /** The call answered effect no (retryable or permanent) although the receiver counted an effect. */
    private static boolean deniesEffect(Seen seen, int landed) {
        return landed > 0 && seen.outcome().map(o -> o.effectApplied() == EffectApplied.NO && !o.isOk()).orElse(false);
    }

    private static String deniedAdvice(EffectfulTool spec) {
        List<String> declared = new ArrayList<>();
        for (Class<?> c : spec.retryableOn()) {
            declared.add("retryableOn " + c.getSimpleName());
        }
        for (Class<?> c : spec.permanentOn()) {
            declared.add("permanentOn " + c.getSimpleName());
        }
        return "an outcome of effect no is a lie the next call acts on: it runs the body again, a duplicate."
                + (declared.isEmpty() ? " The tool reported effect no itself (an Outcome or ToolOutcomeException):"
                + " report Outcome.unknown(...) when the request may have reached the receiver;"
                : " The exception matched " + declared + ":")
                + " don't declare this exception retryableOn/permanentOn, or let it through as unknown (a lost answer"
                + " is unknown, and the probe or the key settles it)";
    }

    private Verdict killMidCall(String tool, EffectfulTool spec) {
        Verdict lost = lostAnswer(tool, spec);
        if (lost.failed()) {
            return lost;
        }
        Scenario s = new Scenario();
        int e0 = effects.getAsInt();
        int r0 = faults.requests();
        int k0 = kit.keys().mark();
        boolean crashed = false;
        Seen before = null;
        faults.arm(new Fault.DropAfterEffect(() -> s.process.get().kill()));
        try (Task t = Task.open(s.taskId, taskBudget)) {
            try {
                before = Seen.of(call, s.view);
            } catch (SimulatedCrash died) {
                crashed = true;
            }
        } finally {
            faults.disarm();
        }
        // a call lambda may wrap what it catches (reflection, a helper): the process is dead all the same
        crashed |= s.process.get().dead();
        if (!crashed) {
            return Verdict.fail(Check.KILL_MID_CALL, tool, "no effect request reached the fault point ("
                    + (faults.requests() - r0) + " request(s)); the call " + before.describe(),
                    "point .faultsAt(...) at the receiver this tool calls (for the kit's fake service: the effect"
                            + " requests are those that are not GET or HEAD unless effectRequests(...) says otherwise)");
        }
        awaitIdle(STRAGGLER_WAIT);
        int landed = effects.getAsInt() - e0;
        s.restart();
        Seen after;
        try (Task t = Task.open(s.taskId, taskBudget)) {
            after = Seen.of(retry(), s.view);
        }
        awaitIdle(STRAGGLER_WAIT);
        int total = effects.getAsInt() - e0;
        List<KeyRelay.Sent> keyed = kit.keys().since(k0);
        List<String> keys = keyed.stream().map(KeyRelay.Sent::key).distinct().toList();
        ProbeResult probe = s.records(RecordType.PROBE).stream().map(JournalRecord::probe).filter(Objects::nonNull)
                .findFirst().orElse(null);
        String happened = "the effect landed (" + landed + "), the process died before its outcome was written;"
                + " after a restart the rephrased retry " + after.describe() + (probe == null ? "" : ", probe "
                + probe.word()) + "; " + total + " effect(s) in all"
                + (keyed.isEmpty() ? "" : "; " + keyed.size() + " effect request(s) carried " + keyed.get(0).header()
                + (keys.size() == 1 ? " " + brief(keys.get(0)) + " each time" : " different values " + keys.stream()
                .map(ToolCheck::brief).toList()));
        if (total > 1) {
            String change = !spec.probe().isEmpty()
                    ? "probe " + spec.probe() + " answered absent although the receiver had the effect, so the body ran"
                    + " again: make it look the effect up by what the body sent (the @IntentKey arguments, or the key"
                    + " passed from Attempt.current().orElseThrow().requestKey())"
                    : !spec.keyHeader().isEmpty() ? keyHeaderAdvice(spec, keyed, keys)
                    : spec.keyable() ? "keyable = true, but the receiver applied the retry again: send"
                    + " Attempt.current().orElseThrow().requestKey() as the receiver's idempotency key (the same on"
                    + " every attempt, never a random one), or add a probe"
                    : "the retry ran the body again: add probe = \"...\" to look the effect up before a second attempt";
            return Verdict.fail(Check.KILL_MID_CALL, tool, happened, change);
        }
        if (!spec.keyable() && keyed.stream().anyMatch(KeyRelay.Sent::setByApplication)) {
            // the kit journaled the key as sent; the agent would not have, for a value that is not the key
            return Verdict.fail(Check.KILL_MID_CALL, tool, happened, "the requests carried " + spec.keyHeader()
                    + " values the application set, not the intent key, so under the agent nothing records a key"
                    + " going out and an unknown outcome is held for a person: set the header to"
                    + " Attempt.current().orElseThrow().requestKey() (Stripe: RequestOptions.setIdempotencyKey), or"
                    + " leave it unset so the agent sets it");
        }
        if (after.ok() && total == 1) {
            return Verdict.pass(Check.KILL_MID_CALL, tool, happened);
        }
        if (after.status() == Status.UNKNOWN && spec.probe().isEmpty()) {
            String held = happened + ": held for a person";
            if (heldIsAcceptable) {
                return Verdict.pass(Check.KILL_MID_CALL, tool, held + " (accepted for this tool)");
            }
            return Verdict.fail(Check.KILL_MID_CALL, tool, held + ", because " + spec.kind()
                    + " tools without a probe cannot tell whether the first attempt landed", "add probe = \"find"
                    + Character.toUpperCase(s.firstMethodName().charAt(0)) + s.firstMethodName().substring(1)
                    + "\" to @EffectfulTool: a method with the same parameters that looks the effect up at the receiver"
                    + " (null / empty Optional / false when absent)");
        }
        if (probe == ProbeResult.FAILED || after.status() == Status.UNKNOWN) {
            return Verdict.fail(Check.KILL_MID_CALL, tool, happened, "the probe could not answer: make "
                    + spec.probe() + " return the effect when present and null / empty when absent, without throwing");
        }
        return Verdict.fail(Check.KILL_MID_CALL, tool, happened, "after a crash the retry must end ok with the one"
                + " effect: probe it (probe = ...) so the engine can settle it");
    }

    /** Why a key-header tool's re-run applied again, judged by the keys the service saw. */
    private static String keyHeaderAdvice(EffectfulTool spec, List<KeyRelay.Sent> keyed, List<String> keys) {
        String header = spec.keyHeader();
        if (keyed.isEmpty()) {
            return "keyHeader = \"" + header + "\" puts the key on HTTP requests the body sends, but no request of this"
                    + " tool reached the kit's HTTP service: pass Attempt.current().orElseThrow().requestKey() to the"
                    + " receiver yourself and declare keyable = true, or add probe = \"...\"";
        }
        if (keys.size() > 1 || keyed.stream().anyMatch(KeyRelay.Sent::setByApplication)) {
            return "the requests carried " + header + " values set by the application or its library, not the intent"
                    + " key, and they changed between attempts: set the header to"
                    + " Attempt.current().orElseThrow().requestKey() (Stripe: RequestOptions.setIdempotencyKey), or leave"
                    + " it unset so the agent sets it";
        }
        return "both requests carried " + header + " " + brief(keys.get(0)) + " and the receiver applied both: it does not"
                + " deduplicate on " + header + " (make your fake answer a repeated key with its first response, as"
                + " the real service does), or add probe = \"...\"";
    }

    private static String brief(String key) {
        return key.length() <= 12 ? key : key.substring(0, 12) + "...";
    }

    /** A READ tool called twice: it runs each time by design, so it must change nothing at the receiver. */
    private Verdict readOnly(String tool) {
        Scenario s = new Scenario();
        int e0 = effects.getAsInt();
        int r0 = faults.requests();
        Seen first;
        Seen second;
        try (Task t = Task.open(s.taskId, taskBudget)) {
            first = Seen.of(call, s.view);
            second = Seen.of(retry(), s.view);
        }
        awaitIdle(STRAGGLER_WAIT);
        int delta = effects.getAsInt() - e0;
        FakeHttpService http = faults instanceof FakeHttpService f ? f : null;
        // every request through FakeHooks.around counts, reads included: there only the counted effects say it
        int effectRequests = http == null ? 0 : faults.requests() - r0;
        String happened = "called twice (a READ runs every time): " + delta + " effect(s) at the receiver"
                + (http == null ? "" : ", " + effectRequests + " effect request(s)" + (effectRequests == 0 ? ""
                : " (the last " + http.lastEffectRequest() + ")")) + "; first " + first.describe() + "; second "
                + second.describe();
        if (delta > 0 || effectRequests > 0) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "a READ tool changed the receiver's state, and"
                    + " a READ is never deduplicated, probed or held, so every retry does it again: declare it"
                    + " SEND/CREATE/..., or make it read only" + (delta > 0 ? "" : " (if that request changes"
                    + " nothing, tell the fake with effectRequests(...))"));
        }
        return Verdict.pass(Check.DUPLICATE_DELIVERY, tool, happened);
    }

    /** Waits, at most {@code bound}, until no request is being served at the fault point (a late one has landed). */
    private void awaitIdle(Duration bound) {
        long until = System.nanoTime() + bound.toNanos();
        while (!idle(faults) && System.nanoTime() < until) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean idle(FaultPoint point) {
        if (point instanceof FakeHttpService http) {
            return http.idle();
        }
        return !(point instanceof FakeHooks hooks) || hooks.idle();
    }

    private Verdict errorInSuccess(String tool, EffectfulTool spec, boolean read) {
        if (!faults.answersErrorsInSuccess()) {
            return Verdict.skipped(Check.ERROR_IN_SUCCESS, tool, "the fake gave no error answer: use"
                    + " FakeHttpService.errorAnswer(body) or FakeHooks.around(effect, errorAnswer)");
        }
        Scenario s = new Scenario();
        Seen seen;
        if (read && faults instanceof FakeHttpService http) {
            // a READ's requests are GETs, which effect faults pass by
            http.armAnyRequest(new Fault.ErrorAnswer());
        } else {
            faults.arm(new Fault.ErrorAnswer());
        }
        try (Task t = Task.open(s.taskId, taskBudget)) {
            seen = Seen.of(call, s.view);
        } finally {
            faults.disarm();
        }
        String happened = "the receiver answered success with an error inside; the call " + seen.describe();
        if (seen.ok()) {
            return Verdict.fail(Check.ERROR_IN_SUCCESS, tool, happened, spec.check().isEmpty()
                    ? "add check = \"check" + Character.toUpperCase(s.firstMethodName().charAt(0))
                    + s.firstMethodName().substring(1) + "\" to @EffectfulTool: a method taking the returned value"
                    + " that throws when it reports a failure (IllegalArgumentException when a retry cannot help,"
                    + " ToolOutcomeException(Outcome.retryable(...)) when it can)"
                    : "check " + spec.check() + " let the error answer through: make it throw when the returned value"
                    + " reports a failure");
        }
        return Verdict.pass(Check.ERROR_IN_SUCCESS, tool, happened);
    }

    private Verdict slowSuccess(String tool) {
        Scenario s = new Scenario();
        int e0 = effects.getAsInt();
        int r0 = faults.requests();
        Seen first = null;
        Seen second = null;
        String unfinished = null;
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
            Thread th = new Thread(r, "effectful-kit-slow-success");
            th.setDaemon(true);
            return th;
        });
        long started = System.nanoTime();
        // a body past its deadline gets this long to end before it is judged (and its late request to land)
        long judgeAt = started + SLOW_BUDGET.toNanos() + STRAGGLER_WAIT.toNanos();
        faults.arm(new Fault.Delay(SLOW_DELAY));
        try (Task t = Task.open(s.taskId, SLOW_BUDGET)) {
            Future<Seen> f1 = pool.submit(Task.wrap(() -> Seen.of(call, s.view)));
            long until = System.nanoTime() + SLOW_BUDGET.toNanos();
            while (faults.requests() == r0 && System.nanoTime() < until && !f1.isDone()) {
                Thread.sleep(5);
            }
            // the model, tired of waiting, retries while the first is still at the receiver
            Future<Seen> f2 = pool.submit(Task.wrap(() -> Seen.of(retry(), s.view)));
            first = within(f1, judgeAt);
            second = within(f2, judgeAt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unfinished = "the kit's thread was interrupted";
        } catch (ExecutionException e) {
            unfinished = "the call failed in the kit: " + e.getCause();
        } finally {
            faults.disarm();
            pool.shutdownNow();
        }
        // counted once the bodies have ended and the receiver has answered every request (bounded): an effect
        // that lands after its caller gave up is still an effect
        awaitBodies(s.log, judgeAt);
        awaitIdle(Duration.ofNanos(Math.max(0, judgeAt - System.nanoTime())).plus(SLOW_DELAY));
        int delta = effects.getAsInt() - e0;
        int requests = faults.requests() - r0;
        String happened = "the effect landed " + SLOW_DELAY.toMillis() + " ms into a " + SLOW_BUDGET.toMillis()
                + " ms budget while a rephrased retry came in: " + requests + " request(s), " + delta + " effect(s);"
                + " first " + (first == null ? "had not returned" : first.describe()) + "; retry "
                + (second == null ? "had not returned" : second.describe());
        Optional<CallLog.Body> late = s.log.latestPastDeadline()
                .filter(b -> b.overshootNanos() > OUTLIVED_AFTER.toNanos());
        if (late.isPresent()) {
            CallLog.Body b = late.get();
            return Verdict.fail(Check.SLOW_SUCCESS, tool, happened + "; a body " + (b.ended() ? "ended "
                    + TimeUnit.NANOSECONDS.toMillis(b.overshootNanos()) + " ms after its deadline" : "was still running "
                    + TimeUnit.NANOSECONDS.toMillis(b.overshootNanos()) + " ms after its deadline") + ", although the"
                    + " engine interrupted it there", "a body that outlives its deadline can still apply an effect after"
                    + " the caller was told unknown: let InterruptedException end the body, or check"
                    + " Thread.interrupted() in its loop (do not catch and carry on)");
        }
        if (unfinished != null || first == null || second == null) {
            return Verdict.fail(Check.SLOW_SUCCESS, tool, happened + (unfinished == null ? "" : "; " + unfinished),
                    "a tool call must end within its task budget");
        }
        if (requests > 1 || delta > 1) {
            return Verdict.fail(Check.SLOW_SUCCESS, tool, happened, s.log.mostAtOnce() > 1
                    ? "two bodies ran at once for one intent: keep the @IntentKey arguments equal in the retry"
                    : "the tool sent a second request while the first was still being answered: remove its own retry"
                    + " or a client timeout shorter than the receiver's answer; let it fail and let the engine decide");
        }
        if (!first.ok()) {
            return Verdict.fail(Check.SLOW_SUCCESS, tool, happened, "the effect landed in time but the caller was told"
                    + " otherwise: do not give up before the task budget (check the tool's client timeout)");
        }
        return Verdict.pass(Check.SLOW_SUCCESS, tool, happened);
    }

    /** The call's answer, or null when it has not returned by {@code deadlineNanos}. */
    private static Seen within(Future<Seen> f, long deadlineNanos) throws InterruptedException, ExecutionException {
        try {
            return f.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException stillRunning) {
            return null;
        }
    }

    /** Waits until no body of {@code log} runs, at most until {@code deadlineNanos}. */
    private static void awaitBodies(CallLog log, long deadlineNanos) {
        while (log.running() > 0 && System.nanoTime() < deadlineNanos) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Verdict rateLimit(String tool) {
        Scenario s = new Scenario();
        int e0 = effects.getAsInt();
        int r0 = faults.requests();
        Seen limited;
        Seen early;
        Seen later;
        int r1;
        int r2;
        faults.arm(new Fault.RateLimit(RATE_LIMIT_SECONDS));
        try (Task t = Task.open(s.taskId, taskBudget)) {
            limited = Seen.of(call, s.view);
            // Retry-After counts from the answer, as the engine counts it from the attempt's end
            long at = System.nanoTime();
            faults.disarm();
            r1 = faults.requests();
            early = Seen.of(retry(), s.view);
            r2 = faults.requests();
            long wait = TimeUnit.SECONDS.toNanos(RATE_LIMIT_SECONDS) + TimeUnit.MILLISECONDS.toNanos(50)
                    - (System.nanoTime() - at);
            if (wait > 0) {
                // waiting out the receiver's own Retry-After is the behaviour under test, not a guess
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            later = Seen.of(retry(), s.view);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.fail(Check.RATE_LIMIT, tool, "interrupted", "");
        } finally {
            faults.disarm();
        }
        int delta = effects.getAsInt() - e0;
        Long retryAfter = limited.outcome().map(Outcome::retryAfterS).orElse(null);
        String happened = "429 with Retry-After: " + RATE_LIMIT_SECONDS + "; the call " + limited.describe()
                + " after " + (r1 - r0) + " request(s); an immediate retry " + early.describe() + " with "
                + (r2 - r1) + " more request(s); after the wait " + later.describe() + "; " + delta + " effect(s)";
        if (r1 - r0 > 1) {
            return Verdict.fail(Check.RATE_LIMIT, tool, happened, "the tool called the receiver again right after the"
                    + " 429 without waiting: remove its own retry; report the 429 and let the engine hold the retry");
        }
        if (limited.status() != Status.RETRYABLE || retryAfter == null || retryAfter < RATE_LIMIT_SECONDS) {
            return Verdict.fail(Check.RATE_LIMIT, tool, happened, "the Retry-After was lost: turn the 429 into"
                    + " ToolOutcomeException(Outcome.retryable(\"429 ...\").withRetryAfterS(seconds)) (or return an"
                    + " Outcome like it), or let an HTTP exception carrying the status and headers propagate");
        }
        if (r2 > r1) {
            return Verdict.fail(Check.RATE_LIMIT, tool, happened, "a retry before Retry-After passed reached the"
                    + " receiver: keep the retry's @IntentKey arguments equal to the first call's");
        }
        if (!later.ok() || delta != 1) {
            return Verdict.fail(Check.RATE_LIMIT, tool, happened, "once Retry-After passed the retry must go through"
                    + " with exactly one effect");
        }
        return Verdict.pass(Check.RATE_LIMIT, tool, happened);
    }

    private Verdict partialBatch(String tool) {
        Scenario s = new Scenario();
        int e0 = effects.getAsInt();
        Seen first;
        Seen retry;
        try (Task t = Task.open(s.taskId, taskBudget)) {
            first = Seen.of(call, s.view);
            retry = Seen.of(call, s.view);
        }
        int delta = effects.getAsInt() - e0;
        List<CallLog.Entry> entries = s.log.entries();
        int sent = entries.isEmpty() ? 0 : size(entries.get(0).args());
        List<Outcome.Item> items = first.outcome().map(Outcome::items).orElse(List.of());
        Object[] retried = entries.size() < 2 ? null : entries.get(1).bodyArgs();
        int resent = retried == null ? 0 : size(retried);
        String happened = sent + " items, one ('" + invalidItem + "') invalid: the call " + first.describe()
                + " with " + (items.isEmpty() ? "no per-item outcomes" : items.size() + " item outcomes " + brief(items))
                + "; the retry sent " + resent + " item(s); " + delta + " effect(s)";
        Optional<Outcome.Item> bad = items.stream().filter(i -> i.id().equals(invalidItem)).findFirst();
        long appliedOthers = items.stream().filter(i -> !i.id().equals(invalidItem))
                .filter(i -> i.applied() == EffectApplied.YES).count();
        boolean oneForAll = items.stream().map(Outcome.Item::applied).distinct().count() <= 1;
        if (items.size() != sent || oneForAll || bad.isEmpty()) {
            return Verdict.fail(Check.PARTIAL_BATCH, tool, happened, "the batch reported one outcome for all its items:"
                    + " name each item in the Outcome it returns (Outcome.Item.applied(id), Outcome.Item.rejected(id,"
                    + " reason)) or with Attempt.report(item) as it goes, instead of throwing for the whole batch");
        }
        if (bad.get().applied() != EffectApplied.NO || bad.get().status() != Status.PERMANENT) {
            return Verdict.fail(Check.PARTIAL_BATCH, tool, happened, "the invalid item must be reported rejected"
                    + " (Outcome.Item.rejected(id, reason)): permanent, not applied");
        }
        if (appliedOthers != sent - 1 || delta != sent - 1) {
            return Verdict.fail(Check.PARTIAL_BATCH, tool, happened, "every valid item must be applied exactly once and"
                    + " reported applied");
        }
        if (resent > sent - appliedOthers) {
            return Verdict.fail(Check.PARTIAL_BATCH, tool, happened, "the retry sent items that had landed: report"
                    + " them applied so the engine leaves them out");
        }
        return Verdict.pass(Check.PARTIAL_BATCH, tool, happened);
    }

    private static String brief(List<Outcome.Item> items) {
        return items.stream().map(i -> i.id() + "=" + i.applied().word()).toList().toString();
    }

    private static int size(Object[] args) {
        for (Object a : args) {
            if (a instanceof Collection<?> c) {
                return c.size();
            }
        }
        return 0;
    }

    private ToolCall<T> retry() {
        return rephrased != null ? rephrased : call;
    }

    /** One simulated application: a process (engine over a scratch journal) and the user's tool, guarded. */
    private final class Scenario {
        final String taskId = "kit-" + UUID.randomUUID().toString().substring(0, 8);
        final AtomicReference<KitProcess> process = new AtomicReference<>();
        final CallLog log = new CallLog();
        T target;
        T view;

        Scenario() {
            Path dir = kit.scratchDir(taskId);
            process.set(kit.register(KitProcess.start(dir)));
            newTool();
        }

        private void newTool() {
            target = factory.get();
            view = GuardedViews.guard(target, process::get, log, kit.keys());
        }

        /** The process died: a new one over the same journal, with the application's tool built anew. */
        void restart() {
            process.set(kit.register(process.get().restart()));
            newTool();
        }

        List<JournalRecord> records(RecordType type) {
            return process.get().journal().all().stream().filter(r -> r.type() == type).toList();
        }

        String firstMethodName() {
            List<CallLog.Entry> e = log.entries();
            return e.isEmpty() ? "Effect" : e.get(0).method().getName();
        }
    }
}

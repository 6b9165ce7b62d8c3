package dev.effectful.junit;

import dev.effectful.EffectfulTool;
import dev.effectful.Items;
import dev.effectful.core.journal.Kind;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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
        FailureChecks.Settings<T> settings = new FailureChecks.Settings<>(kit, type, factory, call, rephrased,
                effects, faults, invalidItem, heldIsAcceptable, taskBudget);
        RepeatChecks<T> repeats = new RepeatChecks<>(settings);
        FaultChecks<T> faultChecks = new FaultChecks<>(settings);
        EffectfulTool spec = GuardedViews.toolAnnotation(type, method).orElseThrow();
        String tool = ToolAudit.name(GuardedViews.toolMethod(type, method).orElseThrow());
        boolean batch = java.util.Arrays.stream(method.getParameters()).anyMatch(p -> p.isAnnotationPresent(Items.class));
        boolean read = Kind.alwaysRuns(spec.kind().name());
        List<Verdict> verdicts = new ArrayList<>(ToolAudit.audit(GuardedViews.toolMethod(type, method).orElseThrow()
                .getDeclaringClass(), GuardedViews.toolMethod(type, method).orElseThrow(), spec));
        if (batch) {
            verdicts.add(invalidItem == null ? Verdict.skipped(Check.PARTIAL_BATCH, tool, "a batch tool: give"
                    + " .batch(call, invalidItemId) to run the partial-batch check")
                    : ifWanted(Check.PARTIAL_BATCH, tool, () -> faultChecks.partialBatch(tool)));
            for (Check c : List.of(Check.KILL_MID_CALL, Check.DUPLICATE_DELIVERY, Check.ERROR_IN_SUCCESS,
                    Check.SLOW_SUCCESS, Check.RATE_LIMIT)) {
                verdicts.add(Verdict.skipped(c, tool, "run on single calls; this is a batch tool (see partial batch)"));
            }
        } else {
            if (read) {
                verdicts.add(ifWanted(Check.DUPLICATE_DELIVERY, tool, () -> repeats.readOnly(tool)));
                for (Check c : List.of(Check.KILL_MID_CALL, Check.SLOW_SUCCESS, Check.RATE_LIMIT)) {
                    verdicts.add(Verdict.skipped(c, tool, "a READ tool runs on every call by design (a price must be fresh)"));
                }
            } else {
                verdicts.add(ifWanted(Check.DUPLICATE_DELIVERY, tool, () -> repeats.duplicateDelivery(tool, method, spec, verdicts)));
                verdicts.add(ifWanted(Check.KILL_MID_CALL, tool, () -> faultChecks.killMidCall(tool, spec)));
                verdicts.add(ifWanted(Check.SLOW_SUCCESS, tool, () -> faultChecks.slowSuccess(tool)));
                verdicts.add(ifWanted(Check.RATE_LIMIT, tool, () -> faultChecks.rateLimit(tool)));
            }
            verdicts.add(ifWanted(Check.ERROR_IN_SUCCESS, tool, () -> repeats.errorInSuccess(tool, spec, read)));
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

}

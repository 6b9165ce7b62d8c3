package dev.effectful.agent.installer;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Makes the task follow the work: rewrites the JDK's executors so the {@code dev.effectful.Task} current when work
 * is submitted is bound while it runs, and unbound afterwards. The tool transformer never looks at
 * bootstrap classes; this one looks at nothing else, and only at the few named here, so it costs a
 * set lookup per loaded class.
 *
 * <pre>
 * submit side                                                  | run side
 * -------------------------------------------------------------+-------------------------------------
 * ThreadPoolExecutor.execute(Runnable)                         | wrapped; FutureTask: FutureTask.run
 * ScheduledThreadPoolExecutor.schedule*(Runnable|Callable,..)  | wrapped (periodic runs included)
 * ForkJoinPool.execute/submit(Runnable|Callable)               | wrapped; ForkJoinTask: doExec
 * ForkJoinPool.execute/submit/invoke(ForkJoinTask), fork()     | ForkJoinTask.doExec
 *   (CompletableFuture *Async stages are ForkJoinTasks)        |
 * JDK 21+: ThreadBuilders.newVirtualThread(.., Runnable)       | wrapped
 * JDK 17, <= 2 cores: CompletableFuture$ThreadPerTaskExecutor  | wrapped
 * Timer.sched(TimerTask, ..) (every schedule* method)          | TimerThread.mainLoop's task.run()
 *                                                              |   becomes TaskCarrier.runTimerTask(task)
 * JDK 25: ForkJoinPool.scheduleDelayedTask(ScheduledForkJoinTask) | ForkJoinTask.doExec
 *   (ForkJoinPool's own delay scheduler; CompletableFuture.delayedExecutor's stages go through it)
 * CompletableFuture.delayedExecutor on JDK 17: its Delayer is a ScheduledThreadPoolExecutor, and its
 *   hand-off to the target executor runs with the task bound, so the rows above carry it
 * </pre>
 * A {@code TimerTask} is the application's own subclass (its {@code run} is not the JDK's to rewrite) and
 * may run many times (periodic schedules), so its task is remembered at schedule time for as long as the
 * TimerTask lives, and the timer thread's one call site of {@code run()} binds it around each run.
 * The code is inlined into java.base by {@link ExecutorWeaver} (Byte Buddy's bundled ASM core only, no
 * Advice pipeline), so it may name only bootstrap classes: {@code Task} and {@code TaskCarrier}. Every
 * inserted call is suppressed: a fault here must never break an executor ({@code runTimerTask}, which
 * replaces a call rather than adding one, suppresses its own faults and lets only the TimerTask's through).
 */
final class ContextPropagation {

    private static final String TPE = "java/util/concurrent/ThreadPoolExecutor";
    private static final String STPE = "java/util/concurrent/ScheduledThreadPoolExecutor";
    private static final String FJP = "java/util/concurrent/ForkJoinPool";
    private static final String FJT = "java/util/concurrent/ForkJoinTask";
    private static final String FUTURE_TASK = "java/util/concurrent/FutureTask";
    private static final String THREAD_BUILDERS = "java/lang/ThreadBuilders";
    /** JDK 17 on one or two cores: CompletableFuture's *Async stages each get a new plain thread. */
    private static final String CF_THREAD_PER_TASK = "java/util/concurrent/CompletableFuture$ThreadPerTaskExecutor";

    private static final String RUNNABLE = "java/lang/Runnable";
    private static final String CALLABLE = "java/util/concurrent/Callable";
    private static final String TIMER = "java/util/Timer";
    private static final String TIMER_THREAD = "java/util/TimerThread";
    private static final String TIMER_TASK = "java/util/TimerTask";
    private static final String CARRIER = "dev/effectful/agent/bridge/TaskCarrier";
    private static final String TASK = "dev/effectful/Task";

    /** What is inserted at a matched method's entry (or around its body, for {@link BindAroundRun}). */
    sealed interface Action permits ReplaceArgument, Capture, BindAroundRun, RedirectCall {
    }

    /** {@code argument = owner.method(argument)}: the work is swapped for one that carries the task. */
    record ReplaceArgument(String owner, String method, String descriptor) implements Action {
    }

    /** {@code TaskCarrier.<method>(argument)}, or of {@code this} when {@code argument} is -1. */
    record Capture(int argument, String method) implements Action {
        /** The one-shot capture, dropped when the work starts. */
        Capture(int argument) {
            this(argument, "capture");
        }
    }

    /**
     * Each {@code invokevirtual owner.name descriptor} in the method becomes {@code invokestatic
     * TaskCarrier.<carrier>(receiver)}, which binds the receiver's task around the original call: for
     * a run loop whose work objects are the application's own classes.
     */
    record RedirectCall(String owner, String name, String descriptor, String carrier, String carrierDescriptor)
            implements Action {
    }

    /** {@code token = TaskCarrier.enter(this)} at entry; {@code TaskCarrier.exit(token)} on every exit. */
    record BindAroundRun() implements Action {
    }

    /**
     * Which methods get an action, by name and erased parameter types, as Byte Buddy matchers did:
     * {@code arguments} is the exact parameter count (-1: any), {@code argument}/{@code type} one parameter
     * the method must take (index -1: none), and {@link ReplaceArgument} acts on that parameter.
     */
    record Rule(Set<String> names, int arguments, int argument, String type, Action action) {

        boolean matches(String name, net.bytebuddy.jar.asm.Type[] parameters) {
            return names.contains(name) && (arguments < 0 || parameters.length == arguments)
                    && (argument < 0 || (parameters.length > argument
                    && parameters[argument].getSort() == net.bytebuddy.jar.asm.Type.OBJECT
                    && parameters[argument].getInternalName().equals(type)));
        }
    }

    private static final Action SUBMIT = new ReplaceArgument(CARRIER, "submitted", "(Ljava/lang/Runnable;)Ljava/lang/Runnable;");
    private static final Action SUBMIT_TO_FORK_JOIN = new ReplaceArgument(CARRIER, "submittedToForkJoin",
            "(Ljava/lang/Runnable;)Ljava/lang/Runnable;");
    private static final Action WRAP_RUNNABLE = new ReplaceArgument(TASK, "wrap", "(Ljava/lang/Runnable;)Ljava/lang/Runnable;");
    private static final Action WRAP_CALLABLE = new ReplaceArgument(TASK, "wrap",
            "(Ljava/util/concurrent/Callable;)Ljava/util/concurrent/Callable;");

    private static final Rule TPE_EXECUTE = new Rule(Set.of("execute"), 1, 0, RUNNABLE, SUBMIT);
    private static final Rule SCHEDULE_RUNNABLE = new Rule(Set.of("schedule", "scheduleAtFixedRate", "scheduleWithFixedDelay"),
            -1, 0, RUNNABLE, WRAP_RUNNABLE);
    private static final Rule CALLABLES = new Rule(Set.of("schedule", "submit"), -1, 0, CALLABLE, WRAP_CALLABLE);
    private static final Rule FJP_RUNNABLE = new Rule(Set.of("execute", "submit"), -1, 0, RUNNABLE, SUBMIT_TO_FORK_JOIN);
    private static final Rule FJP_TASK = new Rule(Set.of("execute", "submit", "invoke", "externalSubmit", "lazySubmit"),
            -1, 0, FJT, new Capture(0));
    /** JDK 25: the funnel of the pool's own delay scheduler (schedule*, CompletableFuture.delayedExecutor). */
    private static final Rule FJP_DELAYED = new Rule(Set.of("scheduleDelayedTask"), 1, 0,
            "java/util/concurrent/DelayScheduler$ScheduledForkJoinTask", new Capture(0));
    /** JDK 21+: the private funnel behind invokeAll and friends. */
    private static final Rule FJP_FUNNEL = new Rule(Set.of("poolSubmit"), 2, 1, FJT, new Capture(1));
    private static final Rule FORK = new Rule(Set.of("fork"), 0, -1, null, new Capture(-1));
    private static final Rule DO_EXEC = new Rule(Set.of("doExec"), 0, -1, null, new BindAroundRun());
    private static final Rule FUTURE_RUN = new Rule(Set.of("run", "runAndReset"), 0, -1, null, new BindAroundRun());
    private static final Rule VIRTUAL = new Rule(Set.of("newVirtualThread"), 4, 3, RUNNABLE, WRAP_RUNNABLE);
    /** The private funnel of every {@code Timer.schedule*}; kept for the TimerTask's life (periodic runs). */
    private static final Rule TIMER_SCHED = new Rule(Set.of("sched"), 3, 0, TIMER_TASK, new Capture(0, "captureRepeating"));
    private static final Rule TIMER_RUN = new Rule(Set.of("mainLoop"), 0, -1, null,
            new RedirectCall(TIMER_TASK, "run", "()V", "runTimerTask", "(Ljava/util/TimerTask;)V"));

    /** Internal names of the classes rewritten here, each with the methods it rewrites. */
    private static final Map<String, List<Rule>> RULES = Map.of(
            TPE, List.of(TPE_EXECUTE),
            CF_THREAD_PER_TASK, List.of(TPE_EXECUTE),
            STPE, List.of(SCHEDULE_RUNNABLE, CALLABLES),
            FJP, List.of(SCHEDULE_RUNNABLE, CALLABLES, FJP_RUNNABLE, FJP_TASK, FJP_FUNNEL, FJP_DELAYED),
            FJT, List.of(FORK, DO_EXEC),
            FUTURE_TASK, List.of(FUTURE_RUN),
            THREAD_BUILDERS, List.of(VIRTUAL),
            TIMER, List.of(TIMER_SCHED),
            TIMER_THREAD, List.of(TIMER_RUN));

    /** Whether a class of the bootstrap loader is one this rewrites: a map lookup, nothing of ASM. */
    static boolean isExecutor(String internalName) {
        return RULES.containsKey(internalName);
    }

    /** The rules of one executor class (empty for any other class). */
    static List<Rule> rules(String internalName) {
        return RULES.getOrDefault(internalName, List.of());
    }

    /** The class with the task carried through it, or null if it is not one of the executors (or has none of its methods). */
    byte[] weave(String internalName, byte[] bytes) {
        List<Rule> rules = RULES.get(internalName);
        return rules == null ? null : ExecutorWeaver.weave(bytes, rules);
    }
}

package dev.effectful.agent.installer;

import dev.effectful.Task;
import dev.effectful.agent.bridge.TaskCarrier;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Makes the task follow the work: rewrites the JDK's executors so the {@link Task} current when work
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
 * </pre>
 * Advice is inlined into java.base, so it may name only bootstrap classes: {@link Task} and
 * {@link TaskCarrier}. It suppresses everything: a fault here must never break an executor.
 */
final class ContextPropagation {

    private static final String TPE = "java.util.concurrent.ThreadPoolExecutor";
    private static final String STPE = "java.util.concurrent.ScheduledThreadPoolExecutor";
    private static final String FJP = "java.util.concurrent.ForkJoinPool";
    private static final String FJT = "java.util.concurrent.ForkJoinTask";
    private static final String FUTURE_TASK = "java.util.concurrent.FutureTask";
    private static final String THREAD_BUILDERS = "java.lang.ThreadBuilders";
    /** JDK 17 on one or two cores: CompletableFuture's *Async stages each get a new plain thread. */
    private static final String CF_THREAD_PER_TASK = "java.util.concurrent.CompletableFuture$ThreadPerTaskExecutor";

    private static final Set<String> EXECUTORS = Stream.of(TPE, STPE, FJP, FJT, FUTURE_TASK, THREAD_BUILDERS,
            CF_THREAD_PER_TASK).map(n -> n.replace('.', '/')).collect(Collectors.toUnmodifiableSet());

    /** Internal names of the classes rewritten here, each with the advice it gets. */
    private final Map<String, List<AsmVisitorWrapper>> advice = new HashMap<>();
    private final ClassRewriter rewriter = new ClassRewriter(Weavers.supertypes());

    /**
     * Reads each advice class once. Executor types are matched by name, never as class literals:
     * building this may run while the JDK is loading one of them on another thread.
     */
    ContextPropagation() {
        AsmVisitorWrapper tpe = on(SubmitRunnable.class, named("execute").and(takesArguments(Runnable.class)));
        AsmVisitorWrapper scheduleRunnable = on(WrapRunnable.class,
                namedOneOf("schedule", "scheduleAtFixedRate", "scheduleWithFixedDelay").and(takesArgument(0, Runnable.class)));
        AsmVisitorWrapper callables = on(WrapCallable.class,
                namedOneOf("schedule", "submit").and(takesArgument(0, Callable.class)));
        AsmVisitorWrapper fjpRunnable = on(SubmitToForkJoin.class,
                namedOneOf("execute", "submit").and(takesArgument(0, Runnable.class)));
        AsmVisitorWrapper fjpTask = on(CaptureArgument.class, namedOneOf("execute", "submit", "invoke", "externalSubmit",
                "lazySubmit").and(takesArgument(0, named(FJT))));
        // JDK 21+: the private funnel behind invokeAll and friends
        AsmVisitorWrapper fjpFunnel = on(CaptureSecondArgument.class, named("poolSubmit").and(takesArguments(2))
                .and(takesArgument(1, named(FJT))));
        AsmVisitorWrapper fork = on(CaptureThis.class, named("fork").and(takesArguments(0)));
        AsmVisitorWrapper doExec = on(BindAroundRun.class, named("doExec").and(takesArguments(0)));
        AsmVisitorWrapper futureRun = on(BindAroundRun.class, namedOneOf("run", "runAndReset").and(takesArguments(0)));
        AsmVisitorWrapper virtual = on(WrapFourthRunnable.class, named("newVirtualThread")
                .and(takesArguments(4)).and(takesArgument(3, Runnable.class)));
        put(TPE, tpe);
        put(CF_THREAD_PER_TASK, tpe);
        put(STPE, scheduleRunnable, callables);
        put(FJP, scheduleRunnable, callables, fjpRunnable, fjpTask, fjpFunnel);
        put(FJT, fork, doExec);
        put(FUTURE_TASK, futureRun);
        put(THREAD_BUILDERS, virtual);
    }

    /** Whether a class of the bootstrap loader is one this rewrites: a set lookup, nothing of Byte Buddy. */
    static boolean isExecutor(String internalName) {
        return EXECUTORS.contains(internalName);
    }

    /** The class with the task carried through it, or null if it is not one of the executors. */
    byte[] weave(String internalName, byte[] bytes) {
        List<AsmVisitorWrapper> wrappers = advice.get(internalName);
        if (wrappers == null) {
            return null;
        }
        return rewriter.rewrite(rewriter.describe(null, internalName, bytes), wrappers);
    }

    private void put(String name, AsmVisitorWrapper... wrappers) {
        advice.put(name.replace('.', '/'), List.of(wrappers));
    }

    private static AsmVisitorWrapper on(Class<?> advice, ElementMatcher<? super MethodDescription> methods) {
        return Advice.to(advice).on(not(isAbstract()).and(methods));
    }

    // ------------------------------------------------------------------ advice (inlined into java.base)

    static final class SubmitRunnable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable work) {
            work = TaskCarrier.submitted(work);
        }
    }

    static final class SubmitToForkJoin {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable work) {
            work = TaskCarrier.submittedToForkJoin(work);
        }
    }

    static final class WrapRunnable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable work) {
            work = Task.wrap(work);
        }
    }

    static final class WrapCallable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Callable<?> work) {
            work = Task.wrap(work);
        }
    }

    static final class WrapFourthRunnable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 3, readOnly = false) Runnable work) {
            work = Task.wrap(work);
        }
    }

    static final class CaptureArgument {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object work) {
            TaskCarrier.capture(work);
        }
    }

    static final class CaptureSecondArgument {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(1) Object work) {
            TaskCarrier.capture(work);
        }
    }

    static final class CaptureThis {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object self) {
            TaskCarrier.capture(self);
        }
    }

    static final class BindAroundRun {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object self) {
            return TaskCarrier.enter(self);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            TaskCarrier.exit(token);
        }
    }
}

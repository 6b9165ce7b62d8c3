package dev.effectful.agent.installer;

import dev.effectful.Task;
import dev.effectful.agent.bridge.TaskCarrier;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

import java.lang.instrument.Instrumentation;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;

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
 * name comparison per loaded class.
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

    private ContextPropagation() {
    }

    /** Installs the executor rewriting; returns how long it took, in nanoseconds, for the start-up report. */
    static long install(Instrumentation inst) {
        long start = System.nanoTime();
        // each advice class is read once here, not once per rewritten type
        AsmVisitorWrapper tpe = on(SubmitRunnable.class, named("execute").and(takesArguments(Runnable.class)));
        AsmVisitorWrapper scheduleRunnable = on(WrapRunnable.class,
                namedOneOf("schedule", "scheduleAtFixedRate", "scheduleWithFixedDelay").and(takesArgument(0, Runnable.class)));
        AsmVisitorWrapper callables = on(WrapCallable.class,
                namedOneOf("schedule", "submit").and(takesArgument(0, Callable.class)));
        AsmVisitorWrapper fjpRunnable = on(SubmitToForkJoin.class,
                namedOneOf("execute", "submit").and(takesArgument(0, Runnable.class)));
        AsmVisitorWrapper fjpTask = on(CaptureArgument.class, namedOneOf("execute", "submit", "invoke", "externalSubmit",
                "lazySubmit").and(takesArgument(0, ForkJoinTask.class)));
        // JDK 21+: the private funnel behind invokeAll and friends
        AsmVisitorWrapper fjpFunnel = on(CaptureSecondArgument.class, named("poolSubmit").and(takesArguments(2))
                .and(takesArgument(1, ForkJoinTask.class)));
        AsmVisitorWrapper fork = on(CaptureThis.class, named("fork").and(takesArguments(0)));
        AsmVisitorWrapper doExec = on(BindAroundRun.class, named("doExec").and(takesArguments(0)));
        AsmVisitorWrapper futureRun = on(BindAroundRun.class, namedOneOf("run", "runAndReset").and(takesArguments(0)));
        AsmVisitorWrapper virtual = on(WrapFourthRunnable.class, named("newVirtualThread")
                .and(takesArguments(4)).and(takesArgument(3, Runnable.class)));
        new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.DescriptionStrategy.Default.HYBRID)
                .with(new Errors())
                // the default ignores the bootstrap loader, which is the only one this builder is for
                .ignore(not(namedOneOf(TPE, STPE, FJP, FJT, FUTURE_TASK, THREAD_BUILDERS, CF_THREAD_PER_TASK)))
                .type(named(TPE).or(named(CF_THREAD_PER_TASK)))
                .transform((b, t, l, m, d) -> b.visit(tpe))
                .type(named(STPE))
                .transform((b, t, l, m, d) -> b.visit(scheduleRunnable).visit(callables))
                .type(named(FJP))
                .transform((b, t, l, m, d) -> b.visit(scheduleRunnable).visit(callables).visit(fjpRunnable)
                        .visit(fjpTask).visit(fjpFunnel))
                .type(named(FJT))
                .transform((b, t, l, m, d) -> b.visit(fork).visit(doExec))
                .type(named(FUTURE_TASK))
                .transform((b, t, l, m, d) -> b.visit(futureRun))
                .type(named(THREAD_BUILDERS))
                .transform((b, t, l, m, d) -> b.visit(virtual))
                .installOn(inst);
        return System.nanoTime() - start;
    }

    private static AsmVisitorWrapper on(Class<?> advice, ElementMatcher<? super MethodDescription> methods) {
        return Advice.to(advice).on(not(isAbstract()).and(methods));
    }

    static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f ms", nanos / (double) TimeUnit.MILLISECONDS.toNanos(1));
    }

    /** A JDK class that cannot be rewritten only means the task does not follow through it. */
    private static final class Errors extends AgentBuilder.Listener.Adapter {
        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable t) {
            dev.effectful.runtime.log.AgentLog.errorOnce("propagation:" + typeName, "effectful could not rewrite "
                    + typeName + "; the task context does not follow work through it (use Task.wrap)", t);
        }
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

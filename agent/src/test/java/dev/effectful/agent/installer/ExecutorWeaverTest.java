package dev.effectful.agent.installer;

import dev.effectful.Task;
import dev.effectful.agent.bridge.TaskCarrier;
import dev.effectful.agent.installer.ContextPropagation.BindAroundRun;
import dev.effectful.agent.installer.ContextPropagation.Capture;
import dev.effectful.agent.installer.ContextPropagation.RedirectCall;
import dev.effectful.agent.installer.ContextPropagation.ReplaceArgument;
import dev.effectful.agent.installer.ContextPropagation.Rule;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.Remapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TimerTask;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * The executor weaver's inlined code does what the Advice it replaced did: classes it writes are
 * defined in a fresh loader (so the JVM verifies them, stack map frames included) and run. The JDK's own
 * executors are woven from this JDK's class files, renamed out of {@code java.*} so a test loader may
 * define (and so verify) them; the forked end-to-end test does the same on JDK 17 and 25 with the real
 * agent and {@code -XX:+BytecodeVerificationLocal}.
 */
class ExecutorWeaverTest {

    /** Called by woven code; public, since the woven class lives in another loader's package. */
    public static final class Hooks {
        private Hooks() {
        }

        public static Runnable explode(Runnable work) {
            throw new IllegalStateException("inserted call failed");
        }
    }

    /** Run-side shapes: every return kind, wide locals, a loop at offset 0, own handlers and finally blocks. */
    public static class Runner {
        public final List<String> seen = new ArrayList<>();
        public boolean fail;

        private void see() {
            seen.add(Task.current().map(Task::id).orElse("none"));
        }

        public void run() {
            see();
            if (fail) {
                throw new IllegalArgumentException("body failed");
            }
        }

        public int runInt() {
            int total = 0;
            do {
                total++;
            } while (total < 3);
            for (int i = 0; i < 3; i++) {
                try {
                    if (i == 1 && fail) {
                        throw new IllegalStateException("caught by the body itself");
                    }
                    total += i;
                } catch (IllegalStateException e) {
                    see();
                    return -1;
                } finally {
                    total++;
                }
            }
            see();
            return total;
        }

        public long runLong() {
            long a = 40;
            double d = 1.5;
            String s = "x";
            see();
            if (fail) {
                throw new UnsupportedOperationException(s);
            }
            return a + (long) d + s.length();
        }

        public double runDouble() {
            see();
            return fail ? Double.NaN : 2.5;
        }

        public Object runObject() {
            see();
            synchronized (this) {
                if (fail) {
                    throw new IllegalArgumentException("inside a monitor");
                }
                return "done";
            }
        }
    }

    /** Submit-side shapes: instance and static methods, wide parameters before the work, a loop at offset 0. */
    public static class Submitter {
        public Runnable submit(Runnable work) {
            return work;
        }

        public static Runnable spaced(long a, double b, int c, Runnable work) {
            return work;
        }

        public Runnable failing(Runnable work) {
            return work;
        }

        public Callable<?> call(Callable<?> work, long delay) {
            int n = 0;
            do {
                n++;
            } while (n < delay);
            return work;
        }

        public void hand(long first, Object work) {
        }

        public Submitter self() {
            return this;
        }
    }

    private static final Rule BIND = new Rule(Set.of("run", "runInt", "runLong", "runDouble", "runObject"), 0, -1, null,
            new BindAroundRun());
    private static final ReplaceArgument WRAP = new ReplaceArgument("dev/effectful/Task", "wrap",
            "(Ljava/lang/Runnable;)Ljava/lang/Runnable;");
    private static final List<Rule> SUBMIT = List.of(
            new Rule(Set.of("submit"), 1, 0, "java/lang/Runnable", WRAP),
            new Rule(Set.of("spaced"), 4, 3, "java/lang/Runnable", WRAP),
            new Rule(Set.of("failing"), 1, 0, "java/lang/Runnable", new ReplaceArgument(
                    Hooks.class.getName().replace('.', '/'), "explode", "(Ljava/lang/Runnable;)Ljava/lang/Runnable;")),
            new Rule(Set.of("call"), -1, 0, "java/util/concurrent/Callable", new ReplaceArgument("dev/effectful/Task", "wrap",
                    "(Ljava/util/concurrent/Callable;)Ljava/util/concurrent/Callable;")),
            new Rule(Set.of("hand"), 2, -1, null, new Capture(1)),
            new Rule(Set.of("self"), 0, -1, null, new Capture(-1)));

    @Test
    void bindsTheCapturedTaskAroundEveryExitAndRestoresWhatTheThreadHad() throws Exception {
        Class<?> woven = define(Runner.class, List.of(BIND));
        for (String method : List.of("run", "runInt", "runLong", "runDouble", "runObject")) {
            for (boolean fail : List.of(false, true)) {
                for (String before : List.of("none", "outer")) {
                    Object runner = woven.getConstructor().newInstance();
                    woven.getField("fail").setBoolean(runner, fail);
                    // captured inside a task that stays open elsewhere: this thread lets go of it first
                    Task captured = Task.open("t-captured", Duration.ofSeconds(30));
                    TaskCarrier.capture(runner);
                    Task.enter(null);
                    Task outer = "outer".equals(before) ? Task.open("t-outer", Duration.ofSeconds(30)) : null;
                    Object result;
                    try {
                        result = invoke(woven.getMethod(method), runner);
                        assertThat(Task.current().map(Task::id).orElse("none")).as("after %s fail=%s", method, fail)
                                .isEqualTo(outer == null ? "none" : "t-outer");
                    } finally {
                        if (outer != null) {
                            outer.close();
                        }
                        captured.close();
                    }
                    assertThat(Task.current()).isEmpty();
                    @SuppressWarnings("unchecked")
                    List<String> seen = (List<String>) woven.getField("seen").get(runner);
                    assertThat(seen).as("what %s saw (fail=%s, before=%s)", method, fail, before).containsOnly("t-captured")
                            .isNotEmpty();
                    if (!fail || method.equals("runInt") || method.equals("runDouble")) {
                        assertThat(result).as("%s returns what its body returned", method).isEqualTo(expected(method, fail));
                    } else {
                        assertThat(result).as("%s rethrows its body's exception", method).isInstanceOf(RuntimeException.class);
                    }
                }
            }
        }
        // nothing captured: nothing bound, the body runs as it would
        Object plain = woven.getConstructor().newInstance();
        assertThat(invoke(woven.getMethod("runInt"), plain)).isEqualTo(9);
        assertThat(woven.getField("seen").get(plain)).isEqualTo(List.of("none"));
    }

    private static Object expected(String method, boolean fail) {
        return switch (method) {
            case "runInt" -> fail ? -1 : 9;
            case "runLong" -> 42L;
            case "runDouble" -> fail ? Double.NaN : 2.5;
            case "runObject" -> "done";
            default -> null;
        };
    }

    @Test
    void replacesArgumentsAtEntryAndSuppressesAFailingInsertedCall() throws Exception {
        Class<?> woven = define(Submitter.class, SUBMIT);
        Object submitter = woven.getConstructor().newInstance();
        AtomicReference<String> ran = new AtomicReference<>();
        Runnable work = () -> ran.set(Task.current().map(Task::id).orElse("none"));
        Callable<String> callable = () -> Task.current().map(Task::id).orElse("none");
        Runnable submitted;
        Runnable spaced;
        Runnable failing;
        Callable<?> called;
        Object handed = new Object();
        Task t = Task.open("t-submit", Duration.ofSeconds(30));
        {
            submitted = (Runnable) invoke(woven.getMethod("submit", Runnable.class), submitter, work);
            spaced = (Runnable) invoke(woven.getMethod("spaced", long.class, double.class, int.class, Runnable.class), null,
                    1L, 2.0, 3, work);
            failing = (Runnable) invoke(woven.getMethod("failing", Runnable.class), submitter, work);
            called = (Callable<?>) invoke(woven.getMethod("call", Callable.class, long.class), submitter, callable, 3L);
            invoke(woven.getMethod("hand", long.class, Object.class), submitter, 7L, handed);
            invoke(woven.getMethod("self"), submitter);
        }
        Task.enter(null); // the task stays open while its work runs; this thread now stands for a pool's
        assertThat(submitted).isNotSameAs(work);
        submitted.run();
        assertThat(ran.get()).isEqualTo("t-submit");
        ran.set(null);
        assertThat(spaced).isNotSameAs(work);
        spaced.run();
        assertThat(ran.get()).isEqualTo("t-submit");
        assertThat(failing).as("the inserted call threw: the method ran on with its argument as given").isSameAs(work);
        assertThat(called.call()).isEqualTo("t-submit");
        assertThat(bound(handed)).isEqualTo("t-submit");
        assertThat(bound(submitter)).isEqualTo("t-submit");
        t.close();
        // outside any task nothing is wrapped or captured
        assertThat(invoke(woven.getMethod("submit", Runnable.class), submitter, work)).isSameAs(work);
        invoke(woven.getMethod("self"), submitter);
        assertThat(TaskCarrier.enter(submitter)).isNull();
    }

    /** The task the carrier binds for {@code work}, as a pool thread would see it. */
    private static String bound(Object work) {
        Object token = TaskCarrier.enter(work);
        try {
            return Task.current().map(Task::id).orElse("none");
        } finally {
            TaskCarrier.exit(token);
        }
    }

    @Test
    void eachExecutorOfThisJdkIsWovenWhereTheAdviceWasAndPassesTheVerifier() throws Exception {
        int feature = Runtime.version().feature();
        if (feature != 17) {
            return; // the method lists below are JDK 17's; JDK 25 is covered by the forked test
        }
        assertThat(carrying("java/util/concurrent/ThreadPoolExecutor"))
                .containsExactly("execute(Ljava/lang/Runnable;)V TaskCarrier.submitted");
        assertThat(carrying("java/util/concurrent/CompletableFuture$ThreadPerTaskExecutor"))
                .containsExactly("execute(Ljava/lang/Runnable;)V TaskCarrier.submitted");
        assertThat(carrying("java/util/concurrent/ScheduledThreadPoolExecutor")).containsExactly(
                "schedule(Ljava/lang/Runnable;JLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture; Task.wrap",
                "schedule(Ljava/util/concurrent/Callable;JLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture; Task.wrap",
                "scheduleAtFixedRate(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture; Task.wrap",
                "scheduleWithFixedDelay(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture; Task.wrap",
                "submit(Ljava/util/concurrent/Callable;)Ljava/util/concurrent/Future; Task.wrap");
        assertThat(carrying("java/util/concurrent/ForkJoinPool")).containsExactly(
                "execute(Ljava/lang/Runnable;)V TaskCarrier.submittedToForkJoin",
                "execute(Ljava/util/concurrent/ForkJoinTask;)V TaskCarrier.capture",
                "externalSubmit(Ljava/util/concurrent/ForkJoinTask;)Ljava/util/concurrent/ForkJoinTask; TaskCarrier.capture",
                "invoke(Ljava/util/concurrent/ForkJoinTask;)Ljava/lang/Object; TaskCarrier.capture",
                "submit(Ljava/lang/Runnable;)Ljava/util/concurrent/ForkJoinTask; TaskCarrier.submittedToForkJoin",
                "submit(Ljava/lang/Runnable;Ljava/lang/Object;)Ljava/util/concurrent/ForkJoinTask; TaskCarrier.submittedToForkJoin",
                "submit(Ljava/util/concurrent/Callable;)Ljava/util/concurrent/ForkJoinTask; Task.wrap",
                "submit(Ljava/util/concurrent/ForkJoinTask;)Ljava/util/concurrent/ForkJoinTask; TaskCarrier.capture");
        assertThat(carrying("java/util/concurrent/ForkJoinTask")).containsExactly(
                "doExec()I TaskCarrier.enter TaskCarrier.exit TaskCarrier.exit",
                "fork()Ljava/util/concurrent/ForkJoinTask; TaskCarrier.capture");
        assertThat(carrying("java/util/concurrent/FutureTask")).containsExactly(
                "run()V TaskCarrier.enter TaskCarrier.exit TaskCarrier.exit",
                "runAndReset()Z TaskCarrier.enter TaskCarrier.exit TaskCarrier.exit");
        assertThat(carrying("java/util/Timer")).containsExactly(
                "sched(Ljava/util/TimerTask;JJ)V TaskCarrier.captureRepeating");
        assertThat(carrying("java/util/TimerThread")).containsExactly("mainLoop()V TaskCarrier.runTimerTask");
        for (String executor : List.of("java/util/Timer", "java/util/TimerThread", "java/util/concurrent/ThreadPoolExecutor", "java/util/concurrent/ScheduledThreadPoolExecutor",
                "java/util/concurrent/ForkJoinPool", "java/util/concurrent/ForkJoinTask", "java/util/concurrent/FutureTask",
                "java/util/concurrent/CompletableFuture$ThreadPerTaskExecutor")) {
            assertVerifies(executor);
        }
    }

    @Test
    void theJdksFutureTaskWovenBindsTheSubmittersTaskWhileItRuns() throws Exception {
        Renamed loader = new Renamed("java/util/concurrent/FutureTask");
        Class<?> futureTask = Class.forName("woven.java.util.concurrent.FutureTask", true, loader);
        Callable<String> sees = () -> Task.current().map(Task::id).orElse("none");
        Runnable task = (Runnable) futureTask.getConstructor(Callable.class).newInstance(sees);
        try (Task t = Task.open("t-future", Duration.ofSeconds(30))) {
            TaskCarrier.capture(task);
            Thread pool = new Thread(task);
            pool.start();
            pool.join(10_000);
        }
        assertThat(((Future<?>) task).get()).isEqualTo("t-future");
        assertThat(Task.current()).isEmpty();
    }

    @Test
    void workThatRunsAfterItsTaskClosedSeesNoTask() throws Exception {
        Class<?> woven = define(Runner.class, List.of(BIND));
        Object runner = woven.getConstructor().newInstance();
        try (Task t = Task.open("t-gone", Duration.ofSeconds(30))) {
            TaskCarrier.capture(runner);
        }
        invoke(woven.getMethod("run"), runner);
        assertThat(woven.getField("seen").get(runner)).isEqualTo(List.of("none"));
        assertThat(Task.current()).isEmpty();
    }

    /** Stands for the JDK's timer thread: a loop over the application's TimerTasks, calling each one's run(). */
    public static class TimerLoop {
        public void loop(List<TimerTask> tasks, int times) {
            for (int i = 0; i < times; i++) {
                for (TimerTask t : tasks) {
                    t.run();
                }
            }
        }
    }

    /** An application's TimerTask: records the task it saw on each run; fails when told to. */
    public static final class Seeing extends TimerTask {
        final List<String> seen = new ArrayList<>();
        boolean fail;

        @Override
        public void run() {
            seen.add(Task.current().map(Task::id).orElse("none"));
            if (fail) {
                throw new IllegalStateException("timer task failed");
            }
        }
    }

    @Test
    void aRedirectedTimerLoopBindsTheScheduledTaskAroundEveryRunOfItsTimerTask() throws Exception {
        Class<?> woven = define(TimerLoop.class, List.of(new Rule(Set.of("loop"), -1, -1, null,
                new RedirectCall("java/util/TimerTask", "run", "()V", "runTimerTask", "(Ljava/util/TimerTask;)V"))));
        Seeing periodic = new Seeing();
        Seeing unscheduled = new Seeing();
        Task scheduler = Task.open("t-timer", Duration.ofSeconds(30));
        TaskCarrier.captureRepeating(periodic);
        Task.enter(null); // the timer thread had no task of its own
        try (Task other = Task.open("t-other", Duration.ofSeconds(30))) {
            TaskCarrier.captureRepeating(periodic); // a second schedule of the same TimerTask keeps the first
        }
        Object loop = woven.getConstructor().newInstance();
        invoke(woven.getMethod("loop", List.class, int.class), loop, List.of(periodic, unscheduled), 2);
        assertThat(periodic.seen).containsExactly("t-timer", "t-timer");
        assertThat(unscheduled.seen).containsExactly("none", "none");
        assertThat(Task.current()).isEmpty();
        periodic.fail = true;
        assertThat(invoke(woven.getMethod("loop", List.class, int.class), loop, List.of(periodic), 1))
                .as("the TimerTask's own failure goes on as before").isInstanceOf(IllegalStateException.class);
        assertThat(Task.current()).as("restored after a failed run").isEmpty();
        scheduler.close();
        periodic.fail = false;
        invoke(woven.getMethod("loop", List.class, int.class), loop, List.of(periodic), 1);
        assertThat(periodic.seen).as("a run after the task closed").endsWith("none");
    }

    /** Methods of the woven class that call the carrier or {@code Task}, with those calls in order. */
    private static Set<String> carrying(String internalName) throws IOException {
        byte[] woven = new ContextPropagation().weave(internalName, jdkClass(internalName));
        assertThat(woven).as("woven %s", internalName).isNotNull();
        Set<String> out = new TreeSet<>();
        new ClassReader(woven).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                StringBuilder calls = new StringBuilder();
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean itf) {
                        if (owner.startsWith("dev/effectful/")) {
                            calls.append(' ').append(owner.substring(owner.lastIndexOf('/') + 1)).append('.').append(method);
                        }
                    }

                    @Override
                    public void visitEnd() {
                        if (calls.length() > 0) {
                            out.add(name + descriptor + calls);
                        }
                    }
                };
            }
        }, 0);
        return out;
    }

    /**
     * Defines the woven executor under a name outside {@code java.*} and links it: the verifier runs
     * before its static initializer, which may then fail on JDK internals a test loader cannot reach.
     */
    private static void assertVerifies(String internalName) {
        String name = "woven." + internalName.replace('/', '.');
        try {
            Class.forName(name, true, new Renamed(internalName));
        } catch (VerifyError | ClassFormatError e) {
            fail("woven " + internalName + " fails verification", e);
        } catch (Throwable afterVerification) {
            // initialization reached: verification passed (Unsafe and friends are out of a test loader's reach)
            for (Throwable c = afterVerification; c != null; c = c.getCause()) {
                if (c instanceof VerifyError || c instanceof ClassFormatError) {
                    fail("woven " + internalName + " fails verification", c);
                }
            }
        }
    }

    private static byte[] jdkClass(String internalName) throws IOException {
        try (InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
            assertThat(in).as(internalName).isNotNull();
            return in.readAllBytes();
        }
    }

    /** Serves {@code woven.<jdk class>}: the class (and its nested classes) renamed, the target also woven. */
    static final class Renamed extends ClassLoader {
        private final String target;
        private final String outer;

        Renamed(String target) {
            super(ExecutorWeaverTest.class.getClassLoader());
            this.target = target;
            this.outer = target.contains("$") ? target.substring(0, target.indexOf('$')) : target;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!name.startsWith("woven.")) {
                throw new ClassNotFoundException(name);
            }
            String original = name.substring("woven.".length()).replace('.', '/');
            try {
                byte[] bytes = jdkClass(original);
                if (original.equals(target)) {
                    bytes = new ContextPropagation().weave(original, bytes);
                }
                ClassWriter writer = new ClassWriter(0);
                new ClassReader(bytes).accept(new ClassRemapper(writer, new Remapper() {
                    @Override
                    public String map(String internalName) {
                        return internalName.equals(outer) || internalName.startsWith(outer + "$") ? "woven/" + internalName
                                : internalName;
                    }
                }), 0);
                byte[] renamed = writer.toByteArray();
                return defineClass(name, renamed, 0, renamed.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }

    /** Defines {@code type} woven by {@code rules} in a fresh loader (which verifies it). */
    private static Class<?> define(Class<?> type, List<Rule> rules) throws Exception {
        String internal = type.getName().replace('.', '/');
        byte[] woven = ExecutorWeaver.weave(jdkOrTestClass(internal), rules);
        assertThat(woven).isNotNull();
        ClassLoader loader = new ClassLoader(ExecutorWeaverTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(type.getName())) {
                    synchronized (getClassLoadingLock(name)) {
                        Class<?> c = findLoadedClass(name);
                        return c != null ? c : defineClass(name, woven, 0, woven.length);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
        Class<?> c = Class.forName(type.getName(), true, loader);
        assertThat(c.getClassLoader()).isSameAs(loader);
        return c;
    }

    private static byte[] jdkOrTestClass(String internal) throws IOException {
        try (InputStream in = ExecutorWeaverTest.class.getClassLoader().getResourceAsStream(internal + ".class")) {
            return in.readAllBytes();
        }
    }

    /** Calls {@code m}; an exception the method threw is returned, not thrown. */
    private static Object invoke(Method m, Object target, Object... args) throws IllegalAccessException {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
    }

    @Test
    void aClassWithNoMatchingMethodIsLeftAlone() throws IOException {
        assertThat(ExecutorWeaver.weave(jdkClass("java/util/concurrent/FutureTask"),
                List.of(new Rule(Set.of("noSuchMethod"), 0, -1, null, new BindAroundRun())))).isNull();
        assertThat(new ContextPropagation().weave("java/util/ArrayList", jdkClass("java/util/ArrayList"))).isNull();
        assertThatThrownBy(() -> ExecutorWeaver.weave(new byte[] {1, 2, 3}, List.of(BIND))).isInstanceOf(RuntimeException.class);
    }
}

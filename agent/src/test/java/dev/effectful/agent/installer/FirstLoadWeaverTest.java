package dev.effectful.agent.installer;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.agent.bridge.Bridge;
import dev.effectful.agent.bridge.Dispatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The first-load weaver's wrapper does what {@link ToolAdvice} does: the class it writes is defined
 * (and so verified by the JVM) in a fresh loader and driven through a scripted {@link Dispatcher}.
 */
class FirstLoadWeaverTest {

    /** The class woven; its methods cover every kind of parameter and return slot. */
    public static class Sample {
        public int bodies;

        @EffectfulTool(kind = EffectKind.SEND, name = "greet")
        public String greet(@IntentKey String to, int times) {
            bodies++;
            return to.repeat(times);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "add")
        public static long add(long a, double b, float c, char d, byte e, short f, boolean g) {
            return a + (long) b + (long) c + d + e + f + (g ? 1 : 0);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "fail")
        public synchronized void fail(String why) throws IOException {
            bodies++;
            throw new IOException(why);
        }

        @EffectfulTool(kind = EffectKind.READ, name = "twice")
        public double twice(double x) {
            bodies++;
            return 2 * x;
        }

        public String plain(String s) {
            return s;
        }
    }

    /** Records each call; the test sets what the runtime answers. */
    static final class Script implements Dispatcher {
        final List<String> seen = new ArrayList<>();
        Function<Object[], Object[]> replaceArguments = a -> a;
        boolean skip;
        Object value;
        Throwable thrown;
        boolean valueFromBody = true;
        RuntimeException failOnEnter;
        Object bodyResult;
        Throwable bodyThrown;

        @Override
        public Object enter(Class<?> type, String sig, Object self, Object[] args) {
            seen.add("enter " + type.getName().substring(type.getName().lastIndexOf('$') + 1) + " " + sig + " " + (self != null) + " " + Arrays.toString(args));
            if (failOnEnter != null) {
                throw failOnEnter;
            }
            return "handle";
        }

        @Override
        public Object[] arguments(Object handle, Object[] original) {
            return replaceArguments.apply(original);
        }

        @Override
        public boolean skipBody(Object handle) {
            return skip;
        }

        @Override
        public Object exitValue(Object handle, Object returned, Throwable thrown) {
            bodyResult = returned;
            bodyThrown = thrown;
            return valueFromBody ? returned : value;
        }

        @Override
        public Throwable exitThrown(Object handle) {
            return valueFromBody ? bodyThrown : thrown;
        }
    }

    private final Script script = new Script();

    @AfterEach
    void uninstall() {
        Bridge.install(null);
    }

    @Test
    void theBodyRunsBetweenEnterAndExitAndItsResultGoesThroughTheRuntime() throws Exception {
        Class<?> c = woven();
        Bridge.install(script);
        Object sample = c.getConstructor().newInstance();
        assertThat(c.getMethod("greet", String.class, int.class).invoke(sample, "ab", 2)).isEqualTo("abab");
        assertThat(script.seen).containsExactly("enter Sample greet(Ljava/lang/String;I)Ljava/lang/String; true [ab, 2]");
        assertThat(script.bodyResult).isEqualTo("abab");
        assertThat(c.getField("bodies").getInt(sample)).isEqualTo(1);
    }

    @Test
    void everyPrimitiveSlotIsBoxedAndUnboxedStaticMethodsIncluded() throws Exception {
        Class<?> c = woven();
        Bridge.install(script);
        script.replaceArguments = a -> new Object[] {10L, 1.5d, 2.5f, (char) 1, (byte) 1, (short) 1, true};
        Method add = c.getMethod("add", long.class, double.class, float.class, char.class, byte.class, short.class, boolean.class);
        assertThat(add.invoke(null, 1L, 1d, 1f, 'a', (byte) 0, (short) 0, false)).isEqualTo(10L + 1 + 2 + 1 + 1 + 1 + 1);
        assertThat(script.seen.get(0)).startsWith("enter Sample add(JDFCBSZ)J false [1, 1.0, 1.0, a, 0, 0, false]");
    }

    @Test
    void aSkippedBodyAnswersWithTheRuntimesValueOrThrowable() throws Exception {
        Class<?> c = woven();
        Bridge.install(script);
        Object sample = c.getConstructor().newInstance();
        script.skip = true;
        script.valueFromBody = false;
        script.value = 7.0d;
        assertThat(c.getMethod("twice", double.class).invoke(sample, 1d)).isEqualTo(7.0d);
        script.thrown = new IllegalStateException("refused");
        script.value = null;
        assertThatThrownBy(() -> c.getMethod("greet", String.class, int.class).invoke(sample, "x", 1))
                .isInstanceOf(InvocationTargetException.class).cause().hasMessage("refused");
        assertThat(c.getField("bodies").getInt(sample)).isZero();
    }

    @Test
    void theBodysThrowableReachesTheRuntimeAndTheCaller() throws Exception {
        Class<?> c = woven();
        Bridge.install(script);
        Object sample = c.getConstructor().newInstance();
        assertThatThrownBy(() -> c.getMethod("fail", String.class).invoke(sample, "disk"))
                .isInstanceOf(InvocationTargetException.class).cause().isInstanceOf(IOException.class).hasMessage("disk");
        assertThat(script.bodyThrown).isInstanceOf(IOException.class);
        assertThat(script.bodyResult).isNull();
    }

    @Test
    void aFailureInsideEnterIsSuppressedAndTheBodyRunsAsWithTheAdvice() throws Exception {
        Class<?> c = woven();
        Bridge.install(script);
        script.failOnEnter = new IllegalStateException("boom");
        Object sample = c.getConstructor().newInstance();
        assertThat(c.getMethod("greet", String.class, int.class).invoke(sample, "a", 3)).isEqualTo("aaa");
        // no handle: exit is not asked
        assertThat(script.bodyResult).isNull();
    }

    @Test
    void withoutTheAgentsDispatcherTheBodyRunsUntouched() throws Exception {
        Class<?> c = woven();
        Object sample = c.getConstructor().newInstance();
        assertThat(c.getMethod("twice", double.class).invoke(sample, 4d)).isEqualTo(8d);
    }

    @Test
    void theWrapperKeepsTheSignatureAnnotationsAndParameterNamesTheBodyIsPrivateAndUnannotated() throws Exception {
        Class<?> c = woven();
        Method greet = c.getMethod("greet", String.class, int.class);
        assertThat(greet.getAnnotation(EffectfulTool.class).name()).isEqualTo("greet");
        assertThat(greet.getParameterAnnotations()[0]).hasSize(1);
        assertThat(Modifier.isSynchronized(c.getMethod("fail", String.class).getModifiers())).isTrue();
        assertThat(c.getMethod("fail", String.class).getExceptionTypes()).containsExactly(IOException.class);
        Method body = c.getDeclaredMethod(FirstLoadWeaver.BODY_PREFIX + "greet", String.class, int.class);
        assertThat(Modifier.isPrivate(body.getModifiers())).isTrue();
        assertThat(body.isSynthetic()).isTrue();
        assertThat(body.getDeclaredAnnotations()).isEmpty();
        assertThat(body.getParameterAnnotations()[0]).isEmpty();
        assertThat(Arrays.stream(c.getDeclaredMethods()).filter(m -> m.getName().startsWith(FirstLoadWeaver.BODY_PREFIX)))
                .hasSize(4);
    }

    @Test
    void aClassWithoutItsOwnToolOrAnInterfaceIsLeftToTheOtherPath() throws IOException {
        assertThat(FirstLoadWeaver.weave(bytesOf(Script.class))).isNull();
        assertThat(FirstLoadWeaver.weave(bytesOf(Dispatcher.class))).isNull();
        byte[] once = FirstLoadWeaver.weave(bytesOf(Sample.class));
        assertThat(FirstLoadWeaver.weave(once)).as("already woven: declined").isNull();
    }

    private static Class<?> woven() throws IOException, ClassNotFoundException {
        byte[] b = FirstLoadWeaver.weave(bytesOf(Sample.class));
        assertThat(b).isNotNull();
        String name = Sample.class.getName();
        return new ClassLoader(FirstLoadWeaverTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
                if (n.equals(name)) {
                    synchronized (getClassLoadingLock(n)) {
                        Class<?> done = findLoadedClass(n);
                        return done != null ? done : defineClass(n, b, 0, b.length);
                    }
                }
                return super.loadClass(n, resolve);
            }
        }.loadClass(name);
    }

    private static byte[] bytesOf(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getName().substring(c.getName().lastIndexOf('.') + 1) + ".class")) {
            return in.readAllBytes();
        }
    }
}

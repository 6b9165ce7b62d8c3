package dev.effectful.agent.bootstrap;

import java.lang.reflect.Field;

/**
 * Keeps JDK 24+ from printing its four-line {@code sun.misc.Unsafe} memory-access warning because of
 * the Chronicle Queue the agent bundles (its off-heap memory goes through {@code sun.misc.Unsafe}).
 *
 * <p>In its default mode ({@code warn}) the JDK prints that warning once per JVM, for the first
 * caller, and then records it as given in {@code sun.misc.Unsafe.memoryAccessWarned}. The agent
 * records it as given before Chronicle's first use, so a start with nothing but {@code -javaagent}
 * stays silent. The price, stated in docs/ISOLATION.md: the application's own first use is not reported
 * either; {@code --sun-misc-unsafe-memory-access=debug} (the JDK's audit mode, which this does not
 * touch) reports every use with a stack trace. On JDK 17-23 there is no such field and nothing happens.
 */
final class UnsafeWarning {

    private UnsafeWarning() {
    }

    /** Called from premain and from the CLI's main, before Chronicle's first use; jdk.unsupported opens sun.misc to all. */
    static void markGiven() {
        Class<?> unsafe = unsafeClass();
        if (unsafe == null) {
            return;
        }
        try {
            Field warned = unsafe.getDeclaredField("memoryAccessWarned");
            warned.setAccessible(true);
            warned.setBoolean(null, true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the warning will show; nothing else depends on this
        }
    }

    /** sun.misc.Unsafe when it has the memory-access warning (JDK 24+), else null. */
    private static Class<?> unsafeClass() {
        Class<?> unsafe;
        try {
            unsafe = Class.forName("sun.misc.Unsafe", false, null);
        } catch (ClassNotFoundException e) {
            return null;
        }
        try {
            unsafe.getDeclaredField("memoryAccessWarned");
            return unsafe;
        } catch (NoSuchFieldException e) {
            return null; // JDK 17-23: no warning to keep away
        }
    }
}

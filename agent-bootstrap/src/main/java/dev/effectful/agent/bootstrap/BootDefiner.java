package dev.effectful.agent.bootstrap;

import java.util.List;

/**
 * Defines classes in the bootstrap loader by calling the JDK's internal {@code Unsafe} directly.
 * Only loaded once premain has exported {@code jdk.internal.misc} to this module: the call links
 * then. The reflective call it replaces made JDK 18+ spin method-handle adapters for its first
 * invocation (JEP 416), about 28 ms of a cold JDK 25 start against 0.03 ms here.
 */
final class BootDefiner {

    private BootDefiner() {
    }

    /** Supertypes of these classes are all JDK types, so any order resolves. */
    static void defineAll(List<String> names, List<byte[]> bytes) {
        jdk.internal.misc.Unsafe unsafe = jdk.internal.misc.Unsafe.getUnsafe();
        for (int i = 0; i < names.size(); i++) {
            byte[] b = bytes.get(i);
            unsafe.defineClass(names.get(i), b, 0, b.length, null, null);
        }
    }
}

package dev.effectful.agent.installer;

import java.nio.charset.StandardCharsets;

/**
 * Keeps Byte Buddy away from classes that cannot hold a tool. A class with an
 * {@code @EffectfulTool} method has the annotation's descriptor in its constant pool, so a byte
 * search decides for almost every class loaded, before anything parses it. This is what keeps the
 * agent's cost on a large application's start-up small.
 */
final class AnnotationPrefilter {

    static final byte[] DESCRIPTOR = "Ldev/effectful/EffectfulTool;".getBytes(StandardCharsets.US_ASCII);

    /**
     * The name every way of defining a hidden class spells out in the caller's constant pool: a call of
     * {@code Lookup.defineHiddenClass} (or {@code defineHiddenClassWithClassData}), and the name string a
     * reflective or method-handle lookup of it passes.
     */
    static final byte[] HIDDEN_CLASS_DEFINER = "defineHiddenClass".getBytes(StandardCharsets.US_ASCII);

    private AnnotationPrefilter() {
    }

    static boolean mayHoldTool(byte[] bytes) {
        return contains(bytes, DESCRIPTOR);
    }

    /** Whether the class in {@code bytes} may define hidden classes (see {@link #HIDDEN_CLASS_DEFINER}). */
    static boolean mayDefineHiddenClasses(byte[] bytes) {
        return contains(bytes, HIDDEN_CLASS_DEFINER);
    }

    private static boolean contains(byte[] bytes, byte[] needle) {
        if (bytes == null) {
            return false;
        }
        byte first = needle[0];
        int last = bytes.length - needle.length;
        outer:
        for (int i = 0; i <= last; i++) {
            if (bytes[i] != first) {
                continue;
            }
            for (int j = 1; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}

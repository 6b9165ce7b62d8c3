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

    private static final int[] DESCRIPTOR_SHIFTS = shifts(DESCRIPTOR);
    private static final int[] DEFINER_SHIFTS = shifts(HIDDEN_CLASS_DEFINER);

    private static boolean contains(byte[] bytes, byte[] needle) {
        return contains(bytes, needle, needle == DESCRIPTOR ? DESCRIPTOR_SHIFTS : DEFINER_SHIFTS);
    }

    /**
     * Horspool's search: compares from the needle's last byte and skips by how far that byte of the text is
     * from the needle's end, so most positions of a class file (whose descriptors are full of the 'L' the
     * annotation's descriptor starts with) are never compared at all. Every class loaded passes here.
     */
    private static boolean contains(byte[] bytes, byte[] needle, int[] shift) {
        if (bytes == null) {
            return false;
        }
        int m = needle.length;
        int last = m - 1;
        for (int i = 0; i <= bytes.length - m; i += shift[bytes[i + last] & 0xff]) {
            int j = last;
            while (j >= 0 && bytes[i + j] == needle[j]) {
                j--;
            }
            if (j < 0) {
                return true;
            }
        }
        return false;
    }

    private static int[] shifts(byte[] needle) {
        int[] shift = new int[256];
        java.util.Arrays.fill(shift, needle.length);
        for (int k = 0; k < needle.length - 1; k++) {
            shift[needle[k] & 0xff] = needle.length - 1 - k;
        }
        return shift;
    }
}

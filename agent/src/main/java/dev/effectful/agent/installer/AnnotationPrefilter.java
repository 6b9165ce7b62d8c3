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

    private AnnotationPrefilter() {
    }

    static boolean mayHoldTool(byte[] bytes) {
        if (bytes == null) {
            return false;
        }
        byte first = DESCRIPTOR[0];
        int last = bytes.length - DESCRIPTOR.length;
        outer:
        for (int i = 0; i <= last; i++) {
            if (bytes[i] != first) {
                continue;
            }
            for (int j = 1; j < DESCRIPTOR.length; j++) {
                if (bytes[i + j] != DESCRIPTOR[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}

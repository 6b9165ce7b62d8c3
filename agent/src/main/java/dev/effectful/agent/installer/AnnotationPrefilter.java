package dev.effectful.agent.installer;

import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

import java.lang.instrument.IllegalClassFormatException;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;

/**
 * Keeps Byte Buddy away from classes that cannot hold a tool. A class with an
 * {@code @EffectfulTool} method has the annotation's descriptor in its constant pool, so a byte
 * search decides for almost every class loaded, before anything parses it. This is what keeps the
 * agent's cost on a large application's start-up small.
 */
final class AnnotationPrefilter extends ResettableClassFileTransformer.WithDelegation {

    static final byte[] DESCRIPTOR = "Ldev/effectful/EffectfulTool;".getBytes(StandardCharsets.US_ASCII);

    AnnotationPrefilter(ResettableClassFileTransformer delegate) {
        super(delegate);
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] bytes)
            throws IllegalClassFormatException {
        return mayHoldTool(bytes) ? classFileTransformer.transform(loader, name, redefined, domain, bytes) : null;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
                            byte[] bytes) throws IllegalClassFormatException {
        return mayHoldTool(bytes) ? classFileTransformer.transform(module, loader, name, redefined, domain, bytes) : null;
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

package dev.effectful.agent.installer;

import java.util.ArrayList;
import java.util.List;

/**
 * The direct supertypes named in a class file, read by walking its constant pool only: no parser,
 * nothing of Byte Buddy, so the transformer can ask it of every class that fails the annotation
 * byte search. Names are internal ({@code a/b/C}).
 *
 * @param superName  the super class, null for {@code java/lang/Object} itself and for modules
 * @param interfaces the directly implemented (or extended) interfaces, in declaration order
 */
record ClassHeader(String superName, List<String> interfaces) {

    /** The direct supertypes; empty when the bytes cannot be read as a class file. */
    static ClassHeader of(byte[] b) {
        try {
            return parse(b);
        } catch (RuntimeException malformed) {
            // the JVM will refuse such bytes itself; nothing to decide here
            return new ClassHeader(null, List.of());
        }
    }

    /**
     * The direct supertypes a tool could be inherited from, straight from the bytes: JDK names are
     * recognised in the constant pool and never decoded, so a class extending only JDK types (most
     * classes) costs one walk of its constant pool and no allocation beyond it.
     */
    static List<String> candidatesOf(byte[] b) {
        try {
            if (b == null || b.length < 10 || u4(b, 0) != 0xCAFEBABE) {
                return List.of();
            }
            int[] offsets = new int[u2(b, 8)];
            int p = walkPool(b, offsets);
            int superIndex = u2(b, p + 4);
            int n = u2(b, p + 6);
            List<String> out = null;
            for (int k = -1; k < n; k++) {
                int index = k < 0 ? superIndex : u2(b, p + 8 + 2 * k);
                if (index == 0) {
                    continue;
                }
                int utf8 = offsets[u2(b, offsets[index])];
                if (!isJdk(b, utf8 + 2, u2(b, utf8))) {
                    if (out == null) {
                        out = new ArrayList<>(2);
                    }
                    out.add(className(b, offsets, index));
                }
            }
            return out == null ? List.of() : out;
        } catch (RuntimeException malformed) {
            return List.of();
        }
    }

    private static final byte[][] JDK_PREFIXES = {ascii("java/"), ascii("javax/"), ascii("jdk/"), ascii("sun/"),
            ascii("com/sun/")};

    private static boolean isJdk(byte[] b, int from, int len) {
        outer:
        for (byte[] prefix : JDK_PREFIXES) {
            if (len < prefix.length) {
                continue;
            }
            for (int i = 0; i < prefix.length; i++) {
                if (b[from + i] != prefix[i]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** The supertypes a tool could be inherited from: the JDK declares none. */
    List<String> candidates() {
        List<String> out = new ArrayList<>(interfaces.size() + 1);
        if (superName != null && !isJdk(superName)) {
            out.add(superName);
        }
        for (String i : interfaces) {
            if (!isJdk(i)) {
                out.add(i);
            }
        }
        return out;
    }

    static boolean isJdk(String internalName) {
        return internalName.startsWith("java/") || internalName.startsWith("javax/") || internalName.startsWith("jdk/")
                || internalName.startsWith("sun/") || internalName.startsWith("com/sun/");
    }

    private static ClassHeader parse(byte[] b) {
        if (b == null || b.length < 10 || u4(b, 0) != 0xCAFEBABE) {
            return new ClassHeader(null, List.of());
        }
        int[] offsets = new int[u2(b, 8)];
        int p = walkPool(b, offsets);
        // access_flags u2, this_class u2, super_class u2, interfaces_count u2, interfaces u2[]
        int superIndex = u2(b, p + 4);
        int n = u2(b, p + 6);
        List<String> interfaces = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            interfaces.add(className(b, offsets, u2(b, p + 8 + 2 * k)));
        }
        return new ClassHeader(superIndex == 0 ? null : className(b, offsets, superIndex), List.copyOf(interfaces));
    }

    /** Records where each constant-pool entry starts (after its tag); returns the offset past the pool. */
    private static int walkPool(byte[] b, int[] offsets) {
        int count = offsets.length;
        int p = 10;
        for (int i = 1; i < count; i++) {
            int tag = b[p] & 0xFF;
            offsets[i] = p + 1;
            switch (tag) {
                case 1 -> p += 3 + u2(b, p + 1); // Utf8
                case 3, 4, 9, 10, 11, 12, 17, 18 -> p += 5;
                case 5, 6 -> { // Long, Double: two slots
                    p += 9;
                    i++;
                }
                case 7, 8, 16, 19, 20 -> p += 3;
                case 15 -> p += 4;
                default -> throw new IllegalArgumentException("constant pool tag " + tag);
            }
        }
        return p;
    }

    private static String className(byte[] b, int[] offsets, int classIndex) {
        int utf8 = offsets[u2(b, offsets[classIndex])];
        int len = u2(b, utf8);
        // class names in a class file are plain ASCII in practice; modified UTF-8 decodes the rest
        return new String(b, utf8 + 2, len, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static int u2(byte[] b, int i) {
        return ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
    }

    private static int u4(byte[] b, int i) {
        return (u2(b, i) << 16) | u2(b, i + 2);
    }
}

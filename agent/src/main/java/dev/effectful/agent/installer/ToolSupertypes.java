package dev.effectful.agent.installer;

import dev.effectful.runtime.log.AgentLog;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides, for a class whose own bytes do not mention {@code @EffectfulTool}, whether a supertype
 * declares a tool it may implement or override. The JVM transforms a class before it loads its
 * supertypes, so they are read as class files from the loader (what Byte Buddy's pool would read
 * anyway), and the answer is remembered per loader and type name: a supertype shared by many
 * classes is read once. Classes that extend only JDK types are decided from their own header.
 */
final class ToolSupertypes {

    /** Far deeper than any real hierarchy; a guard against a loader that serves a cycle. */
    private static final int MAX_DEPTH = 64;

    /** Per loader (weakly held), per internal name: does this type or a supertype declare a tool. */
    private final Map<ClassLoader, Map<String, Boolean>> answers = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * Class files of the types seen to declare tools, by internal name. A supertype defined without
     * a resource (generated, or defined from bytes by a framework) is still known by these.
     * Only tool-declaring types land here, so it stays as small as the application's tool set.
     */
    private final Map<String, byte[]> toolTypes = new ConcurrentHashMap<>();

    /** Records a type whose class file mentions the annotation, before anything of it is loaded. */
    void sawToolType(ClassLoader loader, String internalName, byte[] bytes) {
        toolTypes.put(internalName, bytes);
        answers(loader).put(internalName, Boolean.TRUE);
    }

    /** The class file of a tool-declaring type seen earlier, for types no loader serves as a resource. */
    Optional<byte[]> toolType(String internalName) {
        return Optional.ofNullable(toolTypes.get(internalName));
    }

    /** True when a supertype of the class in {@code bytes}, at any depth, may declare a tool. */
    boolean inheritsTool(ClassLoader loader, String internalName, byte[] bytes) {
        List<String> supers = ClassHeader.candidatesOf(bytes);
        if (supers.isEmpty()) {
            return false;
        }
        Map<String, Boolean> known = answers(loader);
        boolean inherits = anyHolds(loader, known, supers, 0);
        if (inherits) {
            // remembered for its own subclasses; a "no" is found again from its supertypes' answers
            known.put(internalName, Boolean.TRUE);
        }
        return inherits;
    }

    private boolean anyHolds(ClassLoader loader, Map<String, Boolean> known, List<String> names, int depth) {
        for (String s : names) {
            if (holds(loader, known, s, depth)) {
                return true;
            }
        }
        return false;
    }

    private boolean holds(ClassLoader loader, Map<String, Boolean> known, String name, int depth) {
        Boolean answer = known.get(name);
        if (answer != null) {
            return answer;
        }
        if (toolTypes.containsKey(name)) {
            return true;
        }
        byte[] bytes = classFile(loader, name);
        if (bytes == null || depth >= MAX_DEPTH) {
            // not cached: a type this loader cannot serve now may still be defined later
            return false;
        }
        boolean holds = AnnotationPrefilter.mayHoldTool(bytes)
                || anyHolds(loader, known, ClassHeader.candidatesOf(bytes), depth + 1);
        known.put(name, holds);
        return holds;
    }

    private static byte[] classFile(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(name + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            AgentLog.debug("effectful could not read the class file of " + name.replace('/', '.') + ": " + e);
            return null;
        }
    }

    /** The last loader asked about and its answers: classes mostly load in runs from one loader. */
    private volatile LastLoader last;

    private record LastLoader(java.lang.ref.WeakReference<ClassLoader> loader, Map<String, Boolean> answers) {
    }

    private Map<String, Boolean> answers(ClassLoader loader) {
        LastLoader l = last;
        if (l != null && l.loader().get() == loader) {
            return l.answers();
        }
        Map<String, Boolean> m = answers.get(loader);
        if (m == null) {
            synchronized (answers) {
                m = answers.computeIfAbsent(loader, k -> new ConcurrentHashMap<>());
            }
        }
        last = new LastLoader(new java.lang.ref.WeakReference<>(loader), m);
        return m;
    }
}

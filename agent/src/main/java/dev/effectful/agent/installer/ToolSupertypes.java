package dev.effectful.agent.installer;

import dev.effectful.core.log.AgentLog;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides, for a class whose own bytes do not mention {@code @EffectfulTool}, whether a supertype
 * declares a tool it may implement or override. The JVM transforms a class before it loads its
 * supertypes: where the JDK's {@code ClassLoader.defineClass} is hooked they are loaded just before
 * ({@link #preload}), so each has passed the transformer and has its answer; else they are read as
 * class files from the loader (what Byte Buddy's pool would read anyway). The answer is remembered per
 * loader and type name: a supertype shared by many classes is decided once. Classes that extend only
 * JDK types are decided from their own header.
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
        Boolean before = answers(loader).put(internalName, Boolean.TRUE);
        if (before == Boolean.FALSE) {
            // its subclasses loaded so far were decided on another copy of it (a duplicate class on the class
            // path whose copies differ): never silent
            AgentLog.errorOnce("supertype-changed:" + internalName, "effectful ERROR: " + internalName.replace('/', '.')
                    + " declares an @EffectfulTool, but a copy of it read earlier did not; classes that extend it and"
                    + " loaded before now run its tools UNGUARDED: remove the other copy from the class path", null);
        }
    }

    /** Every tool-declaring type seen so far, by internal name, with its class file ({@link DeclaredTools} reads them). */
    void forEachToolType(java.util.function.BiConsumer<String, byte[]> action) {
        toolTypes.forEach(action);
    }

    /** The class file of a tool-declaring type seen earlier, for types no loader serves as a resource. */
    Optional<byte[]> toolType(String internalName) {
        return Optional.ofNullable(toolTypes.get(internalName));
    }

    /**
     * True when a supertype of the class in {@code bytes}, at any depth, may declare a tool. A definite answer
     * is remembered for the class itself too: most supertypes a framework's classes share are loaded (and so
     * pass here) before their next subclass, which then needs no read of their class file. In a Spring Boot
     * application more than half the supertypes read were such classes.
     */
    boolean inheritsTool(ClassLoader loader, String internalName, byte[] bytes) {
        return inheritsTool(loader, null, internalName, bytes);
    }

    /**
     * The same, reading a supertype's class file first from {@code home}, the archive the class itself came
     * from (a {@code jar:} URL, as Spring Boot's nested jars are), when it is there: a lookup in one archive,
     * not a search of every archive on the loader's class path, which is most of the cost of this decision
     * in a fat jar. Null or any other kind of location: the loader's own search.
     */
    boolean inheritsTool(ClassLoader loader, URL home, String internalName, byte[] bytes) {
        List<String> supers = ClassHeader.candidatesOf(bytes);
        Map<String, Boolean> known = answers(loader);
        URL archive = localArchive(home) ? home : null;
        Boolean inherits = supers.isEmpty() ? Boolean.FALSE : anyHolds(loader, archive, known, supers, 0);
        if (inherits != null) {
            // "yes" is remembered for its subclasses; so is a definite "no" (a class whose own bytes declare a
            // tool was remembered as "yes" before, and keeps it); an unreadable supertype leaves nothing behind
            known.putIfAbsent(internalName, inherits);
        }
        return inherits == Boolean.TRUE;
    }

    /** TRUE: one of {@code names} may declare a tool; FALSE: none can; null: one could not be read. */
    private Boolean anyHolds(ClassLoader loader, URL archive, Map<String, Boolean> known, List<String> names, int depth) {
        boolean unread = false;
        for (String s : names) {
            Boolean h = holds(loader, archive, known, s, depth);
            if (h == Boolean.TRUE) {
                return Boolean.TRUE;
            }
            unread |= h == null;
        }
        return unread ? null : Boolean.FALSE;
    }

    private Boolean holds(ClassLoader loader, URL archive, Map<String, Boolean> known, String name, int depth) {
        Boolean answer = known.get(name);
        if (answer != null) {
            return answer;
        }
        if (toolTypes.containsKey(name)) {
            return Boolean.TRUE;
        }
        answer = fromParents(loader, name);
        if (answer != null) {
            return answer;
        }
        byte[] bytes = archive == null ? null : fromArchive(archive, name);
        if (bytes == null) {
            bytes = classFile(loader, name);
        }
        if (bytes != null && AgentLog.isEnabled(dev.effectful.core.log.LogSink.Level.DEBUG)) {
            AgentLog.debug("effectful read the class file of " + name.replace('/', '.') + ", not loaded yet, to learn"
                    + " whether it declares a tool");
        }
        if (bytes == null || depth >= MAX_DEPTH) {
            // not cached: a type this loader cannot serve now may still be defined later
            return null;
        }
        Boolean holds = AnnotationPrefilter.mayHoldTool(bytes) ? Boolean.TRUE
                : anyHolds(loader, archive, known, ClassHeader.candidatesOf(bytes), depth + 1);
        if (holds != null) {
            known.put(name, holds);
        }
        return holds;
    }

    /**
     * Loads, without initialising, the supertypes of the class in {@code bytes[off, off + len)} that have no
     * answer yet, through {@code loader}, just before the loader defines the class (the JDK's
     * {@code ClassLoader.defineClass} calls here, see {@link JdkHooks}). The JVM loads them a moment later
     * anyway, while it defines the class, so this moves that work and adds none; but each then passes the
     * transformer before the class does, and is remembered there, so the class's own decision reads no class
     * file. Reading them instead read and inflated each such supertype twice, once here and once by its
     * loader: most of what the agent added to a Spring Boot start's main thread. Never from inside a
     * transformation: the JVM hands no class loaded then to any transformer (see {@link WeavingTransformer}).
     * A supertype that cannot be loaded now is left to the transformer, which reads its class file. The
     * transformer walks the constant pool again rather than take these names: another agent's transformer
     * before it may have changed the class's supertypes (some add interfaces).
     */
    void preload(ClassLoader loader, byte[] bytes, int off, int len) {
        byte[] b = off == 0 && len == bytes.length ? bytes : java.util.Arrays.copyOfRange(bytes, off, off + len);
        List<String> supers = ClassHeader.candidatesOf(b);
        if (supers.isEmpty()) {
            return;
        }
        Map<String, Boolean> known = answers(loader);
        for (String s : supers) {
            if (known.get(s) == null && !toolTypes.containsKey(s) && fromParents(loader, s) == null) {
                try {
                    Class.forName(s.replace('/', '.'), false, loader);
                } catch (ClassNotFoundException | LinkageError | RuntimeException notNow) {
                    // the JVM meets the same when it defines the class; else the transformer reads the class file
                }
            }
        }
    }

    /**
     * True when {@code internalName}, as {@code loader} defined it, is known to declare no tool and to inherit
     * none: it passed the transformer and every supertype was read. False when it may, or nothing is known.
     */
    boolean knownWithoutTools(ClassLoader loader, String internalName) {
        if (loader == null) {
            return false;
        }
        Map<String, Boolean> m = answers.get(loader);
        Boolean a = m == null ? null : m.get(internalName);
        return (a != null ? a : fromParents(loader, internalName)) == Boolean.FALSE;
    }

    /** An answer remembered for a class its defining loader, a parent of {@code loader}, passed here. */
    private Boolean fromParents(ClassLoader loader, String name) {
        try {
            for (ClassLoader p = loader.getParent(); p != null; p = p.getParent()) {
                Map<String, Boolean> m = answers.get(p);
                Boolean a = m == null ? null : m.get(name);
                if (a != null) {
                    return a;
                }
            }
        } catch (RuntimeException denied) {
            // a loader that hides its parent: read the class file instead
        }
        return null;
    }

    /**
     * A {@code jar:} URL of an archive on this machine's disk ({@code jar:file:…!/}, or Spring Boot's
     * {@code jar:nested:…!/} inside one): the only kind read directly. A class loaded from anywhere else
     * ({@code jar:http:…}) is left to its loader: the agent never opens a connection itself.
     */
    static boolean localArchive(URL home) {
        if (home == null || !"jar".equals(home.getProtocol())) {
            return false;
        }
        String inner = home.getFile();
        return inner.endsWith("!/") && (inner.startsWith("file:") || inner.startsWith("nested:"));
    }

    /**
     * {@code name}'s class file from the archive at {@code archive}, or null when it holds none. The entry is
     * looked for in that archive's own listing first (the handler's cached jar file), so a miss throws nothing.
     */
    private static byte[] fromArchive(URL archive, String name) {
        try {
            URLConnection c = new URL(archive, name + ".class").openConnection();
            if (c instanceof JarURLConnection jar && jar.getJarFile().getEntry(name + ".class") == null) {
                return null;
            }
            try (InputStream in = c.getInputStream()) {
                return in.readAllBytes();
            }
        } catch (IOException | RuntimeException notThere) {
            return null;
        }
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

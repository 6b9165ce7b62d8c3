package dev.effectful.agent.installer;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The classes {@link FirstLoadWeaver} guarded when they were defined, per class loader (weakly held):
 * a retransformation of one of them (another agent, a debugger's hot swap) must be woven the same
 * way again, since the JVM refuses to remove the methods it added.
 */
final class FirstLoadWoven {

    private final Map<ClassLoader, Set<String>> byLoader = Collections.synchronizedMap(new WeakHashMap<>());

    void add(ClassLoader loader, String internalName) {
        Set<String> names;
        synchronized (byLoader) {
            names = byLoader.computeIfAbsent(loader, l -> ConcurrentHashMap.newKeySet());
        }
        names.add(internalName);
    }

    boolean wove(ClassLoader loader, String internalName) {
        Set<String> names = byLoader.get(loader);
        return names != null && names.contains(internalName);
    }
}

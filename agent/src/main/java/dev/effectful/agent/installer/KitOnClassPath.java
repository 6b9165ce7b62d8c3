package dev.effectful.agent.installer;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Whether a class loader sees the JUnit kit ({@code dev.effectful.junit.EffectfulKit}): then this is a
 * test JVM whose tool calls may all be the kit's, which guards them with an engine of its own and asks
 * the agent to stand aside ({@code bridge.GuardedElsewhere}). There the journal opens at the first call
 * the agent itself guards, not when the first tool class loads: the class loads as JUnit discovers the
 * tests (a lambda taking the tool is a method of the test class), before any kit exists to say so, and a
 * run of kit tests alone must leave no journal in the project. Production class paths do not hold the
 * kit, so their start is unchanged.
 */
final class KitOnClassPath {

    private static final String KIT = "dev/effectful/junit/EffectfulKit.class";
    private static final Map<ClassLoader, Boolean> SEEN = Collections.synchronizedMap(new WeakHashMap<>());

    private KitOnClassPath() {
    }

    static boolean sees(ClassLoader loader) {
        if (loader == null) {
            return false;
        }
        try {
            return SEEN.computeIfAbsent(loader, l -> l.getResource(KIT) != null);
        } catch (RuntimeException | LinkageError unreadable) {
            // a loader that cannot say: the journal opens early, as everywhere else
            return false;
        }
    }
}

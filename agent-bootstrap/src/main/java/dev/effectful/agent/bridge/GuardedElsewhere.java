package dev.effectful.agent.bridge;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Tool calls that something other than the agent guards, so the agent lets them run untouched: the
 * JUnit kit runs a user's tool under an engine of its own (a scratch journal, simulated crashes), and
 * a test JVM may also carry the agent (the Surefire flag of the README's Install section). Guarding the
 * kit's calls a second time would journal them into the project's journal under the kit's throw-away
 * task ids, its simulated crashes left there as unknown intents for a person.
 *
 * <p>Two ways to claim a call: the caller's own classes (the kit's generated views, which override the
 * user's tool methods and so inherit their tools), and a scope on the current thread while the caller
 * runs a tool body it guards itself. Until the first claim, {@link Bridge#enter} pays one volatile read.
 * JDK types only: this class lives in the bootstrap loader and is called by method handles.
 */
public final class GuardedElsewhere {

    /** Set by the first claim; a JVM without the kit never sets it. */
    private static volatile boolean used;
    /** Classes whose tool methods are guarded elsewhere; weak, so a test's generated classes can unload. */
    private static final Map<Class<?>, Boolean> CLASSES = Collections.synchronizedMap(new WeakHashMap<>());
    /** How deep this thread is in scopes of bodies guarded elsewhere. */
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private GuardedElsewhere() {
    }

    /** Calls of tool methods declared by {@code type} are guarded by the caller: the agent lets them run. */
    public static void classGuarded(Class<?> type) {
        used = true;
        CLASSES.put(type, Boolean.TRUE);
    }

    /** From now until the matching {@link #end}, tool calls on this thread are guarded by the caller. */
    public static void begin() {
        used = true;
        DEPTH.get()[0]++;
    }

    /** Ends the scope {@link #begin} opened. */
    public static void end() {
        int[] d = DEPTH.get();
        if (d[0] > 0) {
            d[0]--;
        }
    }

    /** Whether the call of a tool method declared by {@code type}, on this thread now, is guarded elsewhere. */
    static boolean claims(Class<?> type) {
        if (!used) {
            return false;
        }
        return DEPTH.get()[0] > 0 || (type != null && CLASSES.containsKey(type));
    }
}

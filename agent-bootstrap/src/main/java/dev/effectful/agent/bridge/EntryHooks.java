package dev.effectful.agent.bridge;

import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * The door for calls the agent inserts at library method entries ({@code EntryCall} of the
 * instrumentation API): the inserted code is {@code value = EntryHooks.call(value, id)}, and the hook
 * with that id, registered by the agent when it wove the class, runs in the agent's own loader. JDK
 * types only, like the rest of the bridge. A hook that throws or answers null leaves the value as it was.
 */
public final class EntryHooks {

    private static volatile UnaryOperator<Object>[] hooks = newArray(0);

    private EntryHooks() {
    }

    /** What the inserted code calls: the hook's answer, or {@code value} itself. */
    public static Object call(Object value, int id) {
        try {
            UnaryOperator<Object>[] all = hooks;
            if (id < 0 || id >= all.length) {
                return value;
            }
            Object out = all[id].apply(value);
            return out == null ? value : out;
        } catch (Throwable t) {
            return value;
        }
    }

    /** Registers a hook and returns the id the inserted code passes; called by the agent while weaving. */
    public static synchronized int register(UnaryOperator<Object> hook) {
        UnaryOperator<Object>[] next = Arrays.copyOf(hooks, hooks.length + 1);
        next[hooks.length] = hook;
        hooks = next;
        return hooks.length - 1;
    }

    @SuppressWarnings("unchecked")
    private static UnaryOperator<Object>[] newArray(int n) {
        return (UnaryOperator<Object>[]) new UnaryOperator<?>[n];
    }
}

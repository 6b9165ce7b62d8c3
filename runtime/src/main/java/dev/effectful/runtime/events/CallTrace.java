package dev.effectful.runtime.events;

/**
 * One guarded call as the sinks see it, from its start to its last event: where each sink keeps
 * what it opened for the call (a span and its scope, a JFR event under way). Made at the call's
 * entry only when some sink is interested, so a call nobody watches carries none.
 */
public final class CallTrace {

    private final Class<?> toolClass;
    private final String verb;
    private final long startNanos;
    private final Object[] slots;
    /** Bit i: sink i was interested at the call's entry and gets all its events. */
    private final long watchers;
    private volatile boolean ended;

    CallTrace(Class<?> toolClass, String verb, int sinks, long watchers) {
        this.watchers = watchers;
        this.toolClass = toolClass;
        this.verb = verb;
        this.startNanos = System.nanoTime();
        this.slots = new Object[sinks];
    }

    /** The tool's class: a sink reaching the application's libraries resolves them from its loader. */
    public Class<?> toolClass() {
        return toolClass;
    }

    /** The tool's verb ({@code gen_ai.tool.name}). */
    public String verb() {
        return verb;
    }

    /** {@link System#nanoTime()} when the call entered the engine. */
    public long startNanos() {
        return startNanos;
    }

    /** What sink number {@code sink} keeps for this call; null when it kept nothing. */
    public Object slot(int sink) {
        return slots[sink];
    }

    public void slot(int sink, Object value) {
        slots[sink] = value;
    }

    boolean watchedBy(int sink) {
        return sink < 64 && (watchers & (1L << sink)) != 0;
    }

    boolean ended() {
        return ended;
    }

    void end() {
        ended = true;
    }
}

package dev.effectful.runtime.events;

/**
 * Something that shows a guarded call's steps somewhere (the log line, JFR, OpenTelemetry,
 * Micrometer). Asked first whether it is interested in a tool's calls at all: a call no sink
 * is interested in builds no event. A sink must not throw (the fan-out still catches, once).
 */
public interface EventSink {

    /** Whether this sink wants the calls of {@code toolClass} now; asked at each call's entry, so keep it cheap. */
    boolean interested(Class<?> toolClass);

    /** The call starts (before any event of it); {@code slot} is this sink's place in the trace. */
    default void begin(CallTrace trace, int slot) {
    }

    /** One step; {@code slot} is this sink's place in {@code event.trace()}. */
    void on(CallEvent event, int slot);

    /** The engine failed inside before the call's last event: close whatever is still open for it. */
    default void abandon(CallTrace trace, int slot) {
    }
}

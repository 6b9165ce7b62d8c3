package dev.effectful.runtime.events;

import dev.effectful.core.log.AgentLog;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.LongSupplier;

/**
 * The fan-out from the engine to the sinks. A call no sink is interested in costs one question per
 * sink at its entry and nothing after: no trace, no event. A sink interested at a call's entry gets
 * every event of that call, so what it opened it also closes. A failing sink is reported once and
 * never reaches the call.
 */
public final class Events {

    /** No sink at all: for engines built without any (some tests). */
    public static final Events NONE = new Events(List.of());

    private final EventSink[] sinks;

    public Events(List<EventSink> sinks) {
        this.sinks = sinks.toArray(new EventSink[0]);
    }

    /**
     * The log line, JFR, and a sink per library provider bundled with the agent (OpenTelemetry,
     * Micrometer), each reaching the application's own copy of its library when it has one.
     * {@code unresolved} counts the intents waiting for a person, for the libraries' gauge.
     */
    public static Events standard(LongSupplier unresolved) {
        List<EventSink> sinks = new ArrayList<>();
        sinks.add(new LogLine());
        sinks.add(new JfrSink());
        try {
            for (LibrarySinkProvider p : ServiceLoader.load(LibrarySinkProvider.class,
                    LibrarySinkProvider.class.getClassLoader())) {
                sinks.add(new LibrarySinks(p, unresolved));
            }
        } catch (ServiceConfigurationError | LinkageError e) {
            AgentLog.errorOnce("library-sinks", "effectful could not list its library sinks (" + e
                    + "); calls are shown in the log and JFR only", e);
        }
        return new Events(sinks);
    }

    /**
     * A trace for a call of {@code toolClass} when some sink is interested in it; else null, and
     * nothing more is done for that call.
     */
    public CallTrace begin(Class<?> toolClass, String verb) {
        long mask = 0;
        for (int i = 0; i < sinks.length && i < 64; i++) {
            if (interested(i, toolClass)) {
                mask |= 1L << i;
            }
        }
        if (mask == 0) {
            return null;
        }
        CallTrace trace = new CallTrace(toolClass, verb, sinks.length, mask);
        for (int i = 0; i < sinks.length; i++) {
            if ((mask & (1L << i)) != 0) {
                try {
                    sinks[i].begin(trace, i);
                } catch (RuntimeException | LinkageError e) {
                    failed(i, e);
                }
            }
        }
        return trace;
    }

    /** Hands {@code event} to the sinks its call's trace chose. */
    public void emit(CallEvent event) {
        CallTrace trace = event.trace();
        if (trace == null || trace.ended()) {
            return;
        }
        for (int i = 0; i < sinks.length; i++) {
            if (trace.watchedBy(i)) {
                try {
                    sinks[i].on(event, i);
                } catch (RuntimeException | LinkageError e) {
                    failed(i, e);
                }
            }
        }
        if (event.last()) {
            trace.end();
        }
    }

    /** The engine failed before the call's last event: each sink closes what it opened. */
    public void abandon(CallTrace trace) {
        if (trace == null || trace.ended()) {
            return;
        }
        trace.end();
        for (int i = 0; i < sinks.length; i++) {
            if (trace.watchedBy(i)) {
                try {
                    sinks[i].abandon(trace, i);
                } catch (RuntimeException | LinkageError e) {
                    failed(i, e);
                }
            }
        }
    }

    private boolean interested(int i, Class<?> toolClass) {
        try {
            return sinks[i].interested(toolClass);
        } catch (RuntimeException | LinkageError e) {
            failed(i, e);
            return false;
        }
    }

    private void failed(int i, Throwable e) {
        AgentLog.errorOnce("event-sink:" + sinks[i].getClass().getName(), "effectful event sink "
                + sinks[i].getClass().getName() + " failed: " + e + "; calls go on without it", e);
    }
}

package dev.effectful.runtime.events;

import jdk.jfr.FlightRecorder;

/**
 * Writes the JFR events. Asks the event types whether a recording wants them before building
 * anything: without a running recording a call costs a volatile read, and three
 * {@code isEnabled()} checks once the Flight Recorder exists.
 *
 * <p>The event classes load only once the Flight Recorder is initialised: on JDK 17 loading the first
 * one initialises JFR's metadata and generates its handlers (over a hundred JDK classes and a few
 * spun ones), which the engine's start paid for a check that is false until a recording starts.
 * Every recording ({@code -XX:StartFlightRecording}, {@code jcmd JFR.start}, a {@code Recording} or
 * {@code RecordingStream}) is made through {@link FlightRecorder#getFlightRecorder()}, which marks it
 * initialised before the recording can start, so no enabled event is missed.
 */
public final class JfrSink implements EventSink {

    /** Only ever asked isEnabled(): once a recording instruments the classes, that reads their setting. */
    private static final class Types {
        static final JfrEvents.Attempt ATTEMPT = new JfrEvents.Attempt();
        static final JfrEvents.Probe PROBE = new JfrEvents.Probe();
        static final JfrEvents.Refusal REFUSAL = new JfrEvents.Refusal();
    }

    @Override
    public boolean interested(Class<?> toolClass) {
        return FlightRecorder.isInitialized()
                && (Types.ATTEMPT.isEnabled() || Types.PROBE.isEnabled() || Types.REFUSAL.isEnabled());
    }

    @Override
    public void begin(CallTrace trace, int slot) {
        if (FlightRecorder.isInitialized() && Types.ATTEMPT.isEnabled()) {
            JfrEvents.Attempt a = new JfrEvents.Attempt();
            a.begin(); // the event's duration is the whole call, admission included
            trace.slot(slot, a);
        }
    }

    @Override
    public void on(CallEvent e, int slot) {
        if (e.step() == Step.PROBE) {
            probe(e);
        } else if (e.step() == Step.REFUSED || e.step() == Step.HELD) {
            refusal(e);
        }
        if (e.last() && e.trace() != null && e.trace().slot(slot) instanceof JfrEvents.Attempt a) {
            e.trace().slot(slot, null);
            a.end();
            if (a.shouldCommit()) {
                fill(a, e);
                a.actor = e.actor();
                a.attempt = e.attempt();
                a.attemptId = e.attemptId();
                a.errorType = e.errorType();
                a.bodyDuration = e.durationNanos();
                a.commit();
            }
        }
    }

    @Override
    public void abandon(CallTrace trace, int slot) {
        trace.slot(slot, null); // an uncommitted JFR event is simply dropped
    }

    private static void probe(CallEvent e) {
        JfrEvents.Probe p = new JfrEvents.Probe();
        if (!p.shouldCommit()) {
            return;
        }
        name(p, e);
        p.attempt = e.attempt();
        p.result = e.probe();
        p.probeDuration = e.durationNanos();
        p.commit();
    }

    private static void refusal(CallEvent e) {
        JfrEvents.Refusal r = new JfrEvents.Refusal();
        if (!r.shouldCommit()) {
            return;
        }
        fill(r, e);
        r.commit();
    }

    /** Which call an event is about ({@link JfrEvents.EffectfulEvent}). */
    private static void name(JfrEvents.EffectfulEvent event, CallEvent e) {
        event.task = e.task();
        event.verb = e.verb();
        event.intentKey = e.intentKey();
    }

    /** The fields an attempt and a refusal share ({@link JfrEvents.Outcome}); -1 for a time that was not given. */
    private static void fill(JfrEvents.Outcome o, CallEvent e) {
        name(o, e);
        o.kind = e.kind();
        o.reentry = e.reentry().word();
        o.outcome = e.outcome();
        o.effectApplied = e.effectApplied();
        o.retryAfterS = e.retryAfterS() == null ? -1 : e.retryAfterS();
        o.deadlineLeftS = e.deadlineLeftS() == null ? -1 : e.deadlineLeftS();
    }
}

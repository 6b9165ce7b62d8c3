package dev.effectful.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The JDK Flight Recorder events, always built in: {@code dev.effectful.Attempt} (one per guarded
 * call, from its entry to its end), {@code dev.effectful.Probe} and {@code dev.effectful.Refusal},
 * in category "Effectful". Without a recording their {@code isEnabled()} is false and nothing is built.
 */
final class JfrEvents {

    private JfrEvents() {
    }

    /**
     * Every event of ours: which call it is about, in category "Effectful", without a stack trace (the
     * tool's frames say nothing the event's fields do not). Both annotations are inherited, and JFR records
     * the fields an event class inherits.
     */
    @Category("Effectful")
    @StackTrace(false)
    abstract static class EffectfulEvent extends Event {
        @Label("Task") String task;
        @Label("Verb") String verb;
        @Label("Intent Key") String intentKey;
    }

    /**
     * What an attempt and a refusal both say of a call: which intent, how it entered and how it ended. JFR
     * records the fields an event class inherits, so each is declared once, here.
     */
    abstract static class Outcome extends EffectfulEvent {
        @Label("Kind") String kind;
        @Label("Re-entry") @Description("new, dedup, probe, held, refused or approval (waits for a person's approval)")
        String reentry;
        @Label("Outcome") String outcome;
        @Label("Effect Applied") String effectApplied;
        @Label("Retry After (s)") long retryAfterS;
        @Label("Deadline Left (s)") long deadlineLeftS;
    }

    @Name("dev.effectful.Attempt")
    @Label("Effectful Tool Call")
    @Description("One guarded tool call: how it entered (new, dedup, probe, held, refused) and how it ended")
    static final class Attempt extends Outcome {
        @Label("Actor") String actor;
        @Label("Attempt") int attempt;
        @Label("Attempt Id") String attemptId;
        @Label("Error Type") String errorType;
        @Label("Body Duration") @Timespan(Timespan.NANOSECONDS) long bodyDuration;
    }

    @Name("dev.effectful.Probe")
    @Label("Effectful Probe")
    @Description("A declared probe asked whether an earlier attempt of unknown outcome had applied")
    static final class Probe extends EffectfulEvent {
        @Label("Probed Attempt") int attempt;
        @Label("Result") @Description("found, absent or failed") String result;
        @Label("Probe Duration") @Timespan(Timespan.NANOSECONDS) long probeDuration;
    }

    @Name("dev.effectful.Refusal")
    @Label("Effectful Refusal")
    @Description("A guarded call not run: refused, or held for a person")
    static final class Refusal extends Outcome {
    }
}

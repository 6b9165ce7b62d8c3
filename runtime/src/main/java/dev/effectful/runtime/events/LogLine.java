package dev.effectful.runtime.events;

import dev.effectful.core.log.AgentLog;
import dev.effectful.core.log.LogSink;
import dev.effectful.core.log.PrintableText;

import java.util.concurrent.TimeUnit;

/**
 * The agent's INFO line for each call that ends ({@code effectful attempt 1 task=… call=… outcome=…}),
 * written from the call's events like every other sink.
 */
public final class LogLine implements EventSink {

    @Override
    public boolean interested(Class<?> toolClass) {
        return AgentLog.isEnabled(LogSink.Level.INFO);
    }

    @Override
    public void on(CallEvent e, int slot) {
        String what = what(e);
        if (what == null) {
            return;
        }
        // the task id comes from the application (or a remote caller): quoted when it could pose as a field
        AgentLog.info("effectful " + what + " task=" + PrintableText.field(e.task()) + " call=" + PrintableText.field(e.verb())
                + " kind=" + e.kind() + " intent_key=" + e.intentKey()
                + (e.attemptId() == null ? "" : " attempt_id=" + PrintableText.field(e.attemptId())) + " outcome=" + e.outcome()
                + " effect_applied=" + e.effectApplied() + " duration_ms="
                + TimeUnit.NANOSECONDS.toMillis(e.durationNanos()));
    }

    /** What the line says the call did; null for a step that is not the call's end. */
    private static String what(CallEvent e) {
        if (!e.last()) {
            return null;
        }
        return switch (e.step()) {
            case OUTCOME -> e.attempt() > 0 ? "attempt " + e.attempt() : "nothing to send";
            case DEDUP -> e.resolvedByPerson() ? "deduplicated (resolved)" : "deduplicated";
            case PROBE -> "probe found";
            case REFUSED, HELD -> "refused";
            default -> null;
        };
    }
}

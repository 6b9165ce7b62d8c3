package dev.effectful.runtime.engine;

import dev.effectful.core.log.AgentLog;
import dev.effectful.core.log.LogSink;
import dev.effectful.core.log.StderrSink;

import java.util.List;

/** The agent's log routed into a test's list, and back to stderr after: what the engine said is asserted on. */
final class LogCapture {

    private LogCapture() {
    }

    /**
     * From now on the messages logged at {@code level} go to {@code into}; the levels up to {@code enabledUpTo}
     * are enabled (their messages are made, the others' are not), the agent's threshold is WARN.
     */
    static void record(LogSink.Level level, LogSink.Level enabledUpTo, List<String> into) {
        AgentLog.configure(() -> new LogSink() {
            @Override
            public void log(Level at, String message, Throwable error) {
                if (at == level) {
                    into.add(message);
                }
            }

            @Override
            public boolean isEnabled(Level at) {
                return at.ordinal() <= enabledUpTo.ordinal();
            }
        }, LogSink.Level.WARN);
    }

    /** The agent's log as it is outside these tests: WARN and above to stderr. */
    static void restore() {
        AgentLog.configure(() -> new StderrSink(System.err, LogSink.Level.WARN), LogSink.Level.INFO);
    }
}

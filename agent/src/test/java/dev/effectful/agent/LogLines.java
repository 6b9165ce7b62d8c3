package dev.effectful.agent;

import dev.effectful.core.log.AgentLog;
import dev.effectful.core.log.LogSink;
import dev.effectful.core.log.StderrSink;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The agent's log captured for a test, every level enabled at the INFO threshold, then put back on stderr. */
public final class LogLines {

    private LogLines() {
    }

    /** From now on every line the agent logs, as {@code "LEVEL message"}, in the list returned. */
    public static List<String> capture() {
        List<String> lines = new CopyOnWriteArrayList<>();
        AgentLog.configure(() -> new LogSink() {
            @Override
            public void log(Level level, String message, Throwable error) {
                lines.add(level + " " + message);
            }

            @Override
            public boolean isEnabled(Level level) {
                return true;
            }
        }, LogSink.Level.INFO);
        return lines;
    }

    /** The agent's log as it is outside these tests: WARN and above to stderr. */
    public static void restore() {
        AgentLog.configure(() -> new StderrSink(System.err, LogSink.Level.WARN), LogSink.Level.INFO);
    }
}

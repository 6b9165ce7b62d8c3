package dev.effectful.junit;

import dev.effectful.core.log.AgentLog;
import dev.effectful.core.log.LogSink;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the engine's log lines instead of printing them: a test run with the kit prints what it
 * would print without it. The lines are kept so a failing verdict can quote what the engine said.
 */
final class QuietLog implements LogSink {

    private static final QuietLog INSTANCE = new QuietLog();
    private static volatile boolean installed;
    private final List<String> lines = new ArrayList<>();

    private QuietLog() {
    }

    static QuietLog install() {
        if (!installed) {
            synchronized (QuietLog.class) {
                if (!installed) {
                    AgentLog.configure(() -> INSTANCE, Level.WARN);
                    installed = true;
                }
            }
        }
        return INSTANCE;
    }

    @Override
    public synchronized void log(Level level, String message, Throwable error) {
        if (lines.size() < 1000) {
            lines.add(level + " " + message);
        }
    }

    @Override
    public boolean isEnabled(Level level) {
        return level.ordinal() <= Level.WARN.ordinal();
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }
}

package dev.effectful.core.log;

/** Where the agent's own log lines go: the application's SLF4J binding, or stderr. */
public interface LogSink {
    void log(Level level, String message, Throwable error);

    /** Lets callers skip building a line nobody will see (one per attempt is on the hot path). */
    boolean isEnabled(Level level);

    enum Level { ERROR, WARN, INFO, DEBUG }
}

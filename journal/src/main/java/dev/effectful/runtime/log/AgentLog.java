package dev.effectful.runtime.log;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The agent's log. The sink is chosen lazily on the first line so that premain never initialises
 * the application's logging framework early (that would change its start-up order and cost).
 */
public final class AgentLog {

    private static volatile Supplier<LogSink> factory = () -> new StderrSink(System.err, LogSink.Level.WARN);
    private static volatile LogSink sink;
    private static volatile LogSink.Level threshold = LogSink.Level.INFO;
    private static final Set<String> ONCE = ConcurrentHashMap.newKeySet();

    private AgentLog() {
    }

    /** Configures how the sink will be made on first use, and the level below which lines are dropped. */
    public static void configure(Supplier<LogSink> sinkFactory, LogSink.Level level) {
        factory = sinkFactory;
        threshold = level;
        sink = null;
    }

    public static boolean isEnabled(LogSink.Level level) {
        return level.ordinal() <= threshold.ordinal() && sink().isEnabled(level);
    }

    public static void error(String message, Throwable t) {
        log(LogSink.Level.ERROR, message, t);
    }

    public static void warn(String message) {
        log(LogSink.Level.WARN, message, null);
    }

    public static void info(String message) {
        log(LogSink.Level.INFO, message, null);
    }

    public static void debug(String message) {
        log(LogSink.Level.DEBUG, message, null);
    }

    /** Says something once per process per key: a warning repeated on every call would be noise. */
    public static void warnOnce(String key, String message) {
        if (ONCE.add(key)) {
            warn(message);
        }
    }

    /** An internal failure that disabled part of the agent: said once, loudly, on stderr too. */
    public static void errorOnce(String key, String message, Throwable t) {
        if (ONCE.add(key)) {
            error(message, t);
            if (!(sink instanceof StderrSink)) {
                System.err.println("effectful ERROR: " + PrintableText.escape(message
                        + (t == null ? "" : " (" + t + ")")));
            }
        }
    }

    private static void log(LogSink.Level level, String message, Throwable t) {
        if (level.ordinal() > threshold.ordinal()) {
            return;
        }
        // messages quote task ids, tool names and exception text: one line each, whatever they hold
        sink().log(level, PrintableText.escape(message), t);
    }

    private static LogSink sink() {
        LogSink s = sink;
        if (s == null) {
            synchronized (AgentLog.class) {
                if (sink == null) {
                    try {
                        sink = factory.get();
                    } catch (RuntimeException | LinkageError e) {
                        sink = new StderrSink(System.err, LogSink.Level.WARN);
                    }
                }
                s = sink;
            }
        }
        return s;
    }
}

package dev.effectful.runtime.engine;

import dev.effectful.core.log.AgentLog;
import dev.effectful.core.log.LogSink;
import dev.effectful.core.log.StderrSink;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The agent's log routed into a list, and back to stderr after: what the engine said is asserted on. Registered
 * ({@code @RegisterExtension}) on a static field it captures the whole test class, engine set-up included; on an
 * instance field, each test on its own.
 */
final class LogCapture implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private final LogSink.Level level;
    private final LogSink.Level enabledUpTo;
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private boolean wholeClass;

    private LogCapture(LogSink.Level level, LogSink.Level enabledUpTo) {
        this.level = level;
        this.enabledUpTo = enabledUpTo;
    }

    /**
     * The messages logged at {@code level}; the levels up to {@code enabledUpTo} are enabled (their messages are
     * made, the others' are not), the agent's threshold is WARN.
     */
    static LogCapture of(LogSink.Level level, LogSink.Level enabledUpTo) {
        return new LogCapture(level, enabledUpTo);
    }

    /** What was logged at the level captured, in order. */
    List<String> messages() {
        return messages;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        wholeClass = true;
        record();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        restore();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!wholeClass) {
            record();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!wholeClass) {
            restore();
        }
    }

    private void record() {
        AgentLog.configure(() -> new LogSink() {
            @Override
            public void log(Level at, String message, Throwable error) {
                if (at == level) {
                    messages.add(message);
                }
            }

            @Override
            public boolean isEnabled(Level at) {
                return at.ordinal() <= enabledUpTo.ordinal();
            }
        }, LogSink.Level.WARN);
    }

    /** The agent's log as it is outside these tests: WARN and above to stderr. */
    private static void restore() {
        AgentLog.configure(() -> new StderrSink(System.err, LogSink.Level.WARN), LogSink.Level.INFO);
    }
}

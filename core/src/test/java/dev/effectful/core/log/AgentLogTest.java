package dev.effectful.core.log;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search for the application's log: lines before it is found go to the fallback and are kept,
 * then replayed into it in order; the kept lines are bounded; a loader without SLF4J is asked once.
 */
class AgentLogTest {

    /** A sink that keeps what it is told, as the application's log would show it. */
    static final class Recording implements LogSink {
        final List<String> lines = new ArrayList<>();
        final Level threshold;

        Recording(Level threshold) {
            this.threshold = threshold;
        }

        @Override
        public synchronized void log(Level level, String message, Throwable error) {
            if (isEnabled(level)) {
                lines.add(level + " " + message);
            }
        }

        @Override
        public boolean isEnabled(Level level) {
            return level.ordinal() <= threshold.ordinal();
        }
    }

    private final ByteArrayOutputStream stderrBytes = new ByteArrayOutputStream();
    private final StderrSink stderr = new StderrSink(new PrintStream(stderrBytes, true, StandardCharsets.UTF_8),
            LogSink.Level.WARN);
    private final ClassLoader application = new URLClassLoader(new URL[0], null);
    private final ClassLoader other = new URLClassLoader(new URL[0], null);

    @AfterEach
    void restoreLog() {
        AgentLog.configure(() -> new StderrSink(System.err, LogSink.Level.WARN), LogSink.Level.INFO);
    }

    private String stderr() {
        return stderrBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void linesBeforeTheApplicationsLogAreKeptAndReplayedThereInOrder() {
        Recording app = new Recording(LogSink.Level.INFO);
        AgentLog.configureSearch(loader -> loader == application ? new Slf4jSink.Bound(app) : new Slf4jSink.Absent(),
                stderr, LogSink.Level.INFO);
        assertThat(AgentLog.isEnabled(LogSink.Level.INFO)).as("kept for the replay").isTrue();
        AgentLog.info("first");
        AgentLog.warn("second");
        AgentLog.debug("below the agent's level");
        assertThat(app.lines).isEmpty();
        assertThat(stderr()).as("the fallback shows warnings meanwhile").isEqualTo("effectful WARN: second" + System.lineSeparator());

        AgentLog.lookForApplicationLog(application);
        AgentLog.info("third");
        assertThat(app.lines).containsExactly("INFO first", "WARN second", "INFO third");
        assertThat(stderr()).as("nothing more on stderr once found").isEqualTo("effectful WARN: second" + System.lineSeparator());
    }

    @Test
    void onlyTheLastLinesAreKeptAndTheDroppedOnesAreCounted() {
        Recording app = new Recording(LogSink.Level.DEBUG);
        AgentLog.configureSearch(loader -> loader == application ? new Slf4jSink.Bound(app) : new Slf4jSink.Absent(),
                stderr, LogSink.Level.INFO);
        int said = PendingLines.CAPACITY + 10;
        for (int i = 0; i < said; i++) {
            AgentLog.info("line " + i);
        }
        AgentLog.lookForApplicationLog(application);
        assertThat(app.lines).hasSize(PendingLines.CAPACITY + 1);
        assertThat(app.lines.get(0)).startsWith("INFO effectful: 10 earlier lines were dropped");
        assertThat(app.lines.get(1)).isEqualTo("INFO line 10");
        assertThat(app.lines.get(PendingLines.CAPACITY)).isEqualTo("INFO line " + (said - 1));
    }

    @Test
    void aLoaderWithoutSlf4jIsAskedOnceAndTheBootstrapNever() {
        Recording app = new Recording(LogSink.Level.INFO);
        AtomicInteger asked = new AtomicInteger();
        List<ClassLoader> order = new ArrayList<>();
        Function<ClassLoader, Slf4jSink.Lookup> finder = loader -> {
            asked.incrementAndGet();
            order.add(loader);
            return new Slf4jSink.Absent();
        };
        AgentLog.configureSearch(finder, stderr, LogSink.Level.INFO);
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(other);
        try {
            AgentLog.lookForApplicationLog(String.class); // a bootstrap class: no loader to ask
            AgentLog.lookForApplicationLog(application);
            AgentLog.lookForApplicationLog(application);
        } finally {
            t.setContextClassLoader(before);
        }
        assertThat(order).containsExactly(other, application);
        assertThat(asked).hasValue(2);
        assertThat(app.lines).isEmpty();
    }

    @Test
    void withoutAnyApplicationLogInfoLinesStopBeingBuiltAfterACallFoundNone() {
        AgentLog.configureSearch(loader -> new Slf4jSink.Absent(), stderr, LogSink.Level.INFO);
        assertThat(AgentLog.isEnabled(LogSink.Level.INFO)).isTrue();
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(other);
        try {
            AgentLog.lookForApplicationLog(AgentLogTest.class);
        } finally {
            t.setContextClassLoader(before);
        }
        assertThat(AgentLog.isEnabled(LogSink.Level.INFO)).as("an application without SLF4J pays nothing per call").isFalse();
        assertThat(AgentLog.isEnabled(LogSink.Level.WARN)).isTrue();
        AgentLog.warn("still on stderr");
        assertThat(stderr()).contains("effectful WARN: still on stderr");
    }

    @Test
    void aLoaderStillInitialisingItsLoggingIsAskedAgain() {
        Recording app = new Recording(LogSink.Level.INFO);
        AtomicInteger asked = new AtomicInteger();
        AgentLog.configureSearch(loader -> asked.incrementAndGet() == 1 ? new Slf4jSink.NotYet() : new Slf4jSink.Bound(app),
                stderr, LogSink.Level.INFO);
        AgentLog.lookForApplicationLog(application);
        AgentLog.info("kept");
        AgentLog.lookForApplicationLog(application);
        assertThat(app.lines).containsExactly("INFO kept");
    }

    @Test
    void anErrorOnceGoesToStderrOnlyOnceWhileTheSearchRuns() {
        AgentLog.configureSearch(loader -> new Slf4jSink.Absent(), stderr, LogSink.Level.INFO);
        AgentLog.errorOnce("agent-log-test", "broken", null);
        assertThat(stderr().lines()).containsExactly("effectful ERROR: broken");
    }

    @Test
    void aFailingFinderNeverReachesTheCall() {
        AgentLog.configureSearch(loader -> {
            throw new IllegalStateException("broken loader");
        }, stderr, LogSink.Level.INFO);
        AgentLog.lookForApplicationLog(application);
        AgentLog.warn("after");
        assertThat(stderr()).contains("effectful WARN: after");
    }

    @Test
    void theRealFinderReportsALoaderWithoutSlf4jAsAbsent() {
        assertThat(Slf4jSink.find(application, "dev.effectful")).isInstanceOf(Slf4jSink.Absent.class);
        assertThat(Slf4jSink.find(null, "dev.effectful")).isInstanceOf(Slf4jSink.Absent.class);
    }
}

package dev.effectful.core.log;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The lines the agent said before the application's log was found, kept to be replayed into it: the
 * last {@link #CAPACITY}, and a count of the older ones dropped to make room. Bounded, so an
 * application whose log is never found holds a few kilobytes for it, not a growing list.
 * Not thread-safe: {@link AgentLog} guards it.
 */
final class PendingLines {

    /** How many lines are kept; the oldest go first. */
    static final int CAPACITY = 256;

    /** One line as it was said (already escaped). */
    record Line(LogSink.Level level, String message, Throwable error) {
    }

    /** What was dropped: how many lines, and the most severe level among them. */
    record Dropped(int count, LogSink.Level worst) {
    }

    private final ArrayDeque<Line> lines = new ArrayDeque<>();
    private final int capacity;
    private int dropped;
    private LogSink.Level worstDropped = LogSink.Level.DEBUG;

    PendingLines() {
        this(CAPACITY);
    }

    PendingLines(int capacity) {
        this.capacity = capacity;
    }

    void add(LogSink.Level level, String message, Throwable error) {
        if (lines.size() == capacity) {
            Line old = lines.pollFirst();
            dropped++;
            if (old.level().ordinal() < worstDropped.ordinal()) {
                worstDropped = old.level();
            }
        }
        lines.addLast(new Line(level, message, error));
    }

    List<Line> lines() {
        return List.copyOf(lines);
    }

    Dropped dropped() {
        return new Dropped(dropped, worstDropped);
    }
}

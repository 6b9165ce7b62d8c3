package dev.effectful.core.log;

import java.io.PrintStream;

/** Used when the application has no SLF4J binding; quiet by default (warnings and errors only). */
public final class StderrSink implements LogSink {
    private final PrintStream out;
    private final Level threshold;

    public StderrSink(PrintStream out, Level threshold) {
        this.out = out;
        this.threshold = threshold;
    }

    @Override
    public boolean isEnabled(Level level) {
        return level.ordinal() <= threshold.ordinal();
    }

    @Override
    public void log(Level level, String message, Throwable error) {
        if (!isEnabled(level)) {
            return;
        }
        out.println("effectful " + level + ": " + PrintableText.escape(message + (error == null ? "" : " (" + error + ")")));
    }
}

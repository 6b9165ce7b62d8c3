package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleData;

/**
 * A {@link ConsoleData} kept fresh by one daemon thread of its own, which reads its source (a journal beside
 * its live writer, or the fleet's store) until the console closes, and counts {@link #version()} up whenever
 * the pages would show something new, so that their live updates reload them.
 */
abstract class RefreshedConsole implements ConsoleData {

    final JournalCli cli;
    private final Thread refresher;
    /** Grows whenever the pages would show something new. */
    volatile long version;
    /** Set by {@link #stopRefreshing}: the refresher stops at its next look. */
    volatile boolean closed;

    RefreshedConsole(JournalCli cli, String threadName) {
        this.cli = cli;
        this.refresher = new Thread(this::refresh, threadName);
        // a console stopped with Ctrl-C must not wait for a read in progress
        refresher.setDaemon(true);
    }

    /** Reads the source until {@link #closed}, on the refresher thread. */
    abstract void refresh();

    /** Starts the refresher; pages are answered before it has read anything. */
    final void start() {
        refresher.start();
    }

    @Override
    public final long version() {
        return version;
    }

    /** Stops the refresher, interrupting its wait, and waits at most {@code joinMillis} for it to end (0: not at all). */
    final void stopRefreshing(long joinMillis) {
        closed = true;
        refresher.interrupt();
        if (joinMillis <= 0) {
            return;
        }
        try {
            refresher.join(joinMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

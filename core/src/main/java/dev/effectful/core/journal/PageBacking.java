package dev.effectful.core.journal;

import java.io.File;
import java.io.IOException;

/**
 * Gives the pages a record is about to be copied into real blocks, with {@code pwrite} of zeros, ahead
 * of the mapped copy. Chronicle's cycle files are sparse: a mapped store into a hole on a full file
 * system raises SIGBUS, which arrives as an {@code InternalError} mid-record or, inside a bulk copy,
 * kills the JVM. A write of the same range fails with "No space left on device" instead, before any
 * byte of the record is in the file.
 *
 * <p>Only bytes at or past the data position of the record being written are written, under
 * Chronicle's write lock (the caller holds it): everything there is uncommitted, and Chronicle reads
 * zeros there anyway (a hole). Ranges are backed in steps of {@link #STEP} up to the file's current
 * size, so a journal of small records costs one such write per {@code STEP} of journal; the file is
 * never grown by it (Chronicle sizes its files itself).
 *
 * <p>One per writer ({@link ChronicleJournal}); the caller holds Chronicle's write lock when it asks.
 */
final class PageBacking {
    static final long STEP = 1L << 20;
    private static final java.nio.ByteBuffer ZEROS = java.nio.ByteBuffer.allocateDirect(64 << 10);

    private File file;
    private java.nio.channels.FileChannel channel;
    /** Up to where this process backed the current file; past it nothing was backed or written by it. */
    private long backedTo;

    synchronized void back(File current, long from, long to) throws IOException {
        if (current == null || to <= from) {
            return;
        }
        if (!current.equals(file)) {
            close();
            channel = java.nio.channels.FileChannel.open(current.toPath(), java.nio.file.StandardOpenOption.WRITE);
            file = current;
            backedTo = from;
        }
        if (to <= backedTo) {
            return;
        }
        long start = Math.max(backedTo, from);
        long size = channel.size();
        long end = Math.min(size, Math.max(to, start + STEP));
        try {
            backedTo = Math.max(backedTo, zero(start, end));
        } catch (IOException noRoomAhead) {
            if (Math.min(size, to) >= end) {
                throw noRoomAhead;
            }
            // no room for the step ahead; the record itself (an outcome, say) may still fit
            backedTo = Math.max(backedTo, zero(Math.max(backedTo, start), Math.min(size, to)));
        }
    }

    /** Writes zeros over {@code [start, end)}; returns how far it got (all of it, or it throws). */
    private long zero(long start, long end) throws IOException {
        long pos = start;
        while (pos < end) {
            java.nio.ByteBuffer z = ZEROS.duplicate();
            z.limit((int) Math.min(z.capacity(), end - pos));
            pos += channel.write(z, pos);
            backedTo = Math.max(backedTo, pos);
        }
        return pos;
    }

    synchronized void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // only a descriptor of a file the queue still has open
            }
            channel = null;
            file = null;
        }
    }
}

package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Forces a byte range of a journal file to disk with {@code msync(MS_SYNC)}, in pure Java:
 * {@link MappedByteBuffer#force(int, int)} on a read-only shared mapping of the same file.
 *
 * <p>Why not Chronicle's own {@code appender.sync()}: it reaches msync through jnr-ffi/jffi, whose
 * loading starts {@code /sbin/ldconfig} and, on JDK 24+, prints restricted-method warnings; the
 * build leaves that native layer out, and Chronicle then syncs nothing. msync flushes the file's
 * dirty pages in the range whichever mapping dirtied them, so a second mapping of Chronicle's file
 * makes Chronicle's writes durable. A read-only mapping cannot grow the file.
 *
 * <p>One instance per appending thread (not thread-safe). Mappings are windows of
 * {@value #WINDOW} bytes, kept while appends stay inside; an old window is unmapped when collected.
 */
final class MappedRangeSync {

    /** One Chronicle block: a window is remapped about once per 64 MiB of journal. */
    static final long WINDOW = 64L << 20;

    private Path file;
    private long windowStart = -1;
    private MappedByteBuffer window;

    /** msync(MS_SYNC) of {@code [from, to)} of {@code file}; nothing to do when the range is empty. */
    void force(Path file, long from, long to) throws IOException {
        if (to <= from) {
            return;
        }
        if (!file.equals(this.file)) {
            this.file = file;
            window = null;
        }
        long pos = Math.max(0, from);
        while (pos < to) {
            long start = pos - pos % WINDOW;
            long end = Math.min(to, start + WINDOW);
            if (window == null || windowStart != start || start + window.capacity() < end) {
                map(start);
                if (start + window.capacity() < end) {
                    throw new IOException("cannot msync " + file + " [" + pos + ", " + end + "): the file ends at "
                            + (start + window.capacity()));
                }
            }
            window.force((int) (pos - start), (int) (end - pos));
            pos = end;
        }
    }

    private void map(long start) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = Math.min(WINDOW, Math.max(0, ch.size() - start));
            // the mapping outlives the channel: msync needs only the address
            window = ch.map(FileChannel.MapMode.READ_ONLY, start, size);
            windowStart = start;
        }
    }
}

package dev.effectful.core.journal;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads records as they are appended, from where it was opened ({@link ChronicleJournal#followFromEnd}):
 * for {@code tail --follow} and for a CLI waiting on the writer's resolution record. One thread only.
 * A record that fails its checksum is skipped, as every reader skips it.
 */
public final class JournalFollower implements AutoCloseable {

    private final ExcerptTailer tailer;

    JournalFollower(ExcerptTailer tailer) {
        this.tailer = tailer;
    }

    /**
     * The next record appended, or null when none is there yet (or the next document is not a sound
     * record: it is passed). Throws when the file under it faults.
     */
    public JournalRecord next() {
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return null;
                }
                JournalRecord r;
                try {
                    r = dc.isData() ? RecordCodec.read(dc.wire()) : null;
                } catch (RuntimeException e) {
                    r = null;
                }
                if (r != null) {
                    return r;
                }
            }
        }
    }

    @Override
    public void close() {
        tailer.close();
    }
}

package dev.effectful.core.journal;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * A queue's cycles (one file per roll period): their names in the configuration, how a new one is indexed,
 * which are on disk, and the deletion retention asks for. Apart from {@link ChronicleJournal} because it is the
 * queue's file housekeeping, never on the path of a record.
 */
final class QueueCycles {

    /**
     * Every 16th record of a cycle file is indexed, not every 256th (the daily cycle's default): a read by index
     * walks from the nearest indexed record, and the CLI reads an unsettled intent's record by its index. On ten
     * million attempts, reading the 111,666 records {@code journal unresolved} lists took 1.2-1.5 s at 256 and
     * 0.35-0.85 s at 16 (a warm JVM); appends write one index entry per 16 records instead of per 256. Chronicle keeps these
     * in each cycle file's header, so files written before keep theirs and stay readable.
     */
    static final int INDEX_SPACING = 16;
    /**
     * Entries per index array, twice the daily cycle's default: a cycle file holds at most count x count x
     * spacing records, a billion a day at these settings (the default's 4,096 would allow 268 million).
     */
    static final int INDEX_COUNT = 8192;

    private QueueCycles() {
    }

    /** The roll cycle named as in {@code effectful.roll.cycle}; daily for null or an unknown name. */
    static RollCycle named(String name) {
        return switch (name == null ? "daily" : name.toLowerCase(java.util.Locale.ROOT)) {
            case "five_minutely", "minutely" -> RollCycles.FIVE_MINUTELY;
            case "hourly" -> RollCycles.FAST_HOURLY;
            // one file per second: only so a test can watch retention delete files within seconds
            case "secondly" -> net.openhft.chronicle.queue.rollcycles.TestRollCycles.TEST_SECONDLY;
            default -> RollCycles.FAST_DAILY;
        };
    }

    /** Cycles that have a file on disk, oldest first. */
    static List<Integer> onDisk(SingleChronicleQueue queue) {
        queue.refreshDirectoryListing();
        int first = queue.firstCycle();
        int last = queue.lastCycle();
        if (first == Integer.MAX_VALUE || last < first) {
            return List.of();
        }
        List<Integer> out = new ArrayList<>();
        for (Long c : queue.listCyclesBetween(first, last)) {
            out.add(c.intValue());
        }
        return out;
    }

    /**
     * Deletes the file of a past cycle and makes the queue forget it. Refuses the cycle appends go
     * to now and the newest one on disk, which an appender may still hold.
     */
    static boolean delete(SingleChronicleQueue queue, int cycle) throws IOException {
        if (cycle >= queue.cycle() || cycle >= queue.lastCycle()) {
            return false;
        }
        SingleChronicleQueueStore store = queue.storeForCycle(cycle, queue.epoch(), false, null);
        if (store == null) {
            return false;
        }
        File file;
        try {
            file = store.file();
        } finally {
            queue.closeStore(store);
        }
        boolean deleted = Files.deleteIfExists(file.toPath());
        queue.refreshDirectoryListing();
        return deleted;
    }
}

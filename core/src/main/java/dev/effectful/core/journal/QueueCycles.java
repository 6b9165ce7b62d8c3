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
 * A queue's cycles (one file per roll period): their names in the configuration, which are on disk, and
 * the deletion retention asks for. Apart from {@link ChronicleJournal} because it is the queue's file
 * housekeeping, never on the path of a record.
 */
final class QueueCycles {

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

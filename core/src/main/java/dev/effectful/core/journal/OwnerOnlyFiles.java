package dev.effectful.core.journal;

import net.openhft.chronicle.queue.impl.StoreFileListener;

import java.io.File;

/** Chronicle creates files with the process umask; tighten each as it is acquired, then tell {@code next}. */
record OwnerOnlyFiles(StoreFileListener next) implements StoreFileListener {
    @Override
    public void onAcquired(int cycle, File file) {
        JournalFiles.ownerOnly(file.toPath());
        if (next != null) {
            next.onAcquired(cycle, file);
        }
    }

    @Override
    public void onReleased(int cycle, File file) {
        if (next != null) {
            next.onReleased(cycle, file);
        }
    }
}

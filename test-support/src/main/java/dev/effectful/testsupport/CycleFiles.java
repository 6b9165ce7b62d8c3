package dev.effectful.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the journal tests of several modules read off a Chronicle cycle file, without knowing its format. */
public final class CycleFiles {

    private CycleFiles() {
    }

    /** Where the records end: the last non-zero byte of the (pre-sized, zero-filled) cycle file. */
    public static long usedBytes(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        int end = all.length;
        while (end > 0 && all[end - 1] == 0) {
            end--;
        }
        return end;
    }
}

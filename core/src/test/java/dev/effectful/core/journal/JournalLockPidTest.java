package dev.effectful.core.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The holder a journal's lock names is this process, whichever way its pid was read. */
class JournalLockPidTest {

    @TempDir
    Path dir;

    @Test
    void theLockNamesThisProcess() throws Exception {
        String pid = Long.toString(ProcessHandle.current().pid());
        assertThat(JournalLock.ownPid()).isEqualTo(pid);
        Files.createDirectories(dir);
        try (JournalLock lock = JournalLock.acquire(dir)) {
            assertThat(JournalLock.holderOf(dir)).isEqualTo(pid);
        }
    }
}

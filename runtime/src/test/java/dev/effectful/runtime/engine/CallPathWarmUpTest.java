package dev.effectful.runtime.engine;

import dev.effectful.core.config.EffectfulConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The call-path warm-up the agent runs once the engine is open: it writes a first call's records to a scratch
 * journal of its own, never the application's journal, and leaves no scratch directory behind.
 */
class CallPathWarmUpTest {

    @TempDir
    Path tmp;

    @Test
    void touchesNeitherTheJournalNorLeavesItsScratchBehind() throws Exception {
        Path journal = tmp.resolve("journal");
        Set<Path> before = scratchDirs();
        EngineFactory.warmUpCallPath(EffectfulConfig.load("journal=" + journal));
        assertThat(journal).as("the application's journal directory is not made").doesNotExist();
        assertThat(scratchDirs()).as("no scratch directory of this warm-up is left").isSubsetOf(before);
    }

    private static Set<Path> scratchDirs() throws Exception {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("effectful-warmup")).collect(Collectors.toSet());
        }
    }
}

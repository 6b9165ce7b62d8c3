package dev.effectful.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Scratch directories of the benchmark runs: journals and databases are gigabytes; never leave them. */
final class Dirs {

    private Dirs() {
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Bytes actually allocated on disk (sparse files count only their written blocks), via du. */
    static long allocatedBytes(Path path) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("du", "-s", "-B1", path.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (p.waitFor() != 0) {
            throw new IOException("du failed: " + out);
        }
        return Long.parseLong(out.split("\\s+")[0]);
    }
}

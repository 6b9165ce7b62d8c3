package dev.effectful.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM run to its end with its output watched for one line: the first line that starts with a prefix,
 * and how long after the launch it came. What else it printed is kept for the error that says why a run
 * failed.
 *
 * @param line   the first line starting with the prefix; null when none came
 * @param atMs   wall time from the launch to that line, in milliseconds; NaN when none came
 * @param output everything else the child printed (its standard output and error)
 */
record ChildLine(String line, double atMs, String output) {

    /** Runs {@code cmd} to its end (a minute at most once its output closed), watching for {@code prefix}. */
    static ChildLine run(List<String> cmd, String prefix) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String found = null;
        double at = Double.NaN;
        StringBuilder seen = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                if (found == null && l.startsWith(prefix)) {
                    found = l;
                    at = (System.nanoTime() - t0) / 1e6;
                } else {
                    seen.append(l).append('\n');
                }
            }
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new ChildLine(found, at, seen.toString());
    }

    /** The value of {@code name=value} in the line; throws when the line has no such field. */
    String field(String name) {
        return field(line, name);
    }

    /** The value of {@code name=value} in a line of {@code name=value} words; throws when it has none. */
    static String field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new IllegalArgumentException(name + " not in " + line);
    }
}

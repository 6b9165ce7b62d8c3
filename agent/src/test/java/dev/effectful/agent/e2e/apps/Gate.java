package dev.effectful.agent.e2e.apps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Boots a JVM (and the agent) ahead of time, then runs {@code args[0]}'s main once the file named
 * by {@code -Dgate} exists. The application's classes load only after the gate opens, so its
 * engine starts and reads the journal then: a restart measured from the gate, not from JVM boot.
 */
public final class Gate {

    private Gate() {
    }

    public static void main(String[] args) throws Exception {
        Path gate = Path.of(System.getProperty("gate"));
        long end = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(gate)) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("gate " + gate + " never opened");
            }
            Thread.sleep(10);
        }
        Class.forName(args[0]).getMethod("main", String[].class).invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    }
}

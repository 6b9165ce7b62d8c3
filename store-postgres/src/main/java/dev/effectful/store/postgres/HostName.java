package dev.effectful.store.postgres;

import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's name for the shared rows, read without a DNS lookup (which can stall start-up). */
final class HostName {

    private HostName() {
    }

    static String get() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env.trim();
        }
        try {
            String f = Files.readString(Path.of("/etc/hostname")).trim();
            if (!f.isEmpty()) {
                return f;
            }
        } catch (java.io.IOException | RuntimeException ignored) {
            // not Linux, or no such file
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "unknown-host";
        }
    }
}

package dev.effectful.cli;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** Times as an operator reads them: local wall clock with its UTC offset, and short durations. */
final class Times {
    private static final DateTimeFormatter HUMAN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS xxx");
    // always with milliseconds and an offset (never "Z"-less or second-less), so scripts can parse one shape
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

    private Times() {
    }

    /** "2026-11-30 18:11:02.123 +01:00"; the offset is printed because servers and people disagree on zones. */
    static String human(long epochMillis, ZoneId zone) {
        if (epochMillis <= 0) {
            return "-";
        }
        return HUMAN.format(Instant.ofEpochMilli(epochMillis).atZone(zone));
    }

    /** ISO-8601 with offset, for JSON. */
    static String iso(long epochMillis, ZoneId zone) {
        return ISO.format(Instant.ofEpochMilli(epochMillis).atZone(zone));
    }

    /** "350 ms", "8.1 s", "3 m 05 s", "2 h 03 m", "4 d 02 h". */
    static String duration(long millis) {
        if (millis < 0) {
            return "-";
        }
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return String.format("%.1f s", millis / 1000.0);
        }
        long s = millis / 1000;
        if (s < 3600) {
            return String.format("%d m %02d s", s / 60, s % 60);
        }
        if (s < 86_400) {
            return String.format("%d h %02d m", s / 3600, (s % 3600) / 60);
        }
        return String.format("%d d %02d h", s / 86_400, (s % 86_400) / 3600);
    }

    /** "83.9 MB": file sizes for verify. */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        if (n < 1024 * 1024) {
            return String.format("%.1f KB", n / 1024.0);
        }
        if (n < 1024L * 1024 * 1024) {
            return String.format("%.1f MB", n / (1024.0 * 1024));
        }
        return String.format("%.1f GB", n / (1024.0 * 1024 * 1024));
    }
}

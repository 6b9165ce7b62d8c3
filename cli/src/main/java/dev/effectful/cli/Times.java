package dev.effectful.cli;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
        Instant at = Instant.ofEpochMilli(epochMillis);
        ZoneOffset offset = zone.getRules().getOffset(at);
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochMillis / 1000, (int) (epochMillis % 1000) * 1_000_000, offset);
        if (t.getYear() > 9999 || offset.getTotalSeconds() % 60 != 0) {
            return HUMAN.format(at.atZone(zone)); // shapes the fast path below does not write
        }
        // by hand: a listing prints one per row, and the formatter's general path (a BigDecimal for the
        // fraction) was a tenth of `journal unresolved` on a large journal; TimesProperties holds the two equal
        StringBuilder b = new StringBuilder(30);
        digits(b, t.getYear(), 4).append('-');
        digits(b, t.getMonthValue(), 2).append('-');
        digits(b, t.getDayOfMonth(), 2).append(' ');
        digits(b, t.getHour(), 2).append(':');
        digits(b, t.getMinute(), 2).append(':');
        digits(b, t.getSecond(), 2).append('.');
        digits(b, (int) (epochMillis % 1000), 3).append(' ');
        int minutes = offset.getTotalSeconds() / 60;
        b.append(minutes < 0 ? '-' : '+');
        digits(b, Math.abs(minutes) / 60, 2).append(':');
        return digits(b, Math.abs(minutes) % 60, 2).toString();
    }

    /** {@code n} (not negative) with leading zeros to {@code width} digits. */
    private static StringBuilder digits(StringBuilder b, int n, int width) {
        String s = Integer.toString(n);
        for (int i = s.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(s);
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
        // not String.format: a listing prints one per row (see human)
        long s = millis / 1000;
        if (s < 3600) {
            return pair(s / 60, " m ", s % 60, " s");
        }
        if (s < 86_400) {
            return pair(s / 3600, " h ", (s % 3600) / 60, " m");
        }
        return pair(s / 86_400, " d ", (s % 86_400) / 3600, " h");
    }

    /** "3 m 05 s": a count, its unit, a second count of two digits, its unit. */
    private static String pair(long big, String bigUnit, long small, String smallUnit) {
        return big + bigUnit + (small < 10 ? "0" : "") + small + smallUnit;
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

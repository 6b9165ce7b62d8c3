package dev.effectful.runtime.classify;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;

/** Turns a {@code Retry-After} header (delay-seconds or HTTP-date) into seconds from now. */
final class RetryAfter {

    private static final DateTimeFormatter ASCTIME =
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC);

    private RetryAfter() {
    }

    /** Seconds to wait, never negative; null when the header is absent or not understood. */
    static Long seconds(String header, Clock clock) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.trim();
        if (value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException tooLarge) {
                return null;
            }
        }
        Instant now = clock.instant();
        // RFC 9110 says a recipient must accept all three date forms, though servers send the first
        for (DateTimeFormatter format : List.of(DateTimeFormatter.RFC_1123_DATE_TIME, rfc850(now), ASCTIME)) {
            try {
                Duration wait = Duration.between(now, ZonedDateTime.parse(value, format).toInstant());
                if (wait.isNegative()) {
                    return 0L;
                }
                // round up: retrying a fraction of a second early is retrying too early
                return wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
            } catch (DateTimeParseException | ArithmeticException notThisForm) {
                // try the next form
            }
        }
        return null;
    }

    /** A two-digit year is the one within 50 years of now (RFC 9110, section 5.6.7). */
    private static DateTimeFormatter rfc850(Instant now) {
        int year = now.atZone(ZoneOffset.UTC).getYear();
        return new DateTimeFormatterBuilder()
                .appendPattern("EEEE, dd-MMM-")
                .appendValueReduced(ChronoField.YEAR, 2, 2, LocalDate.of(year - 49, 1, 1))
                .appendPattern(" HH:mm:ss zzz")
                .toFormatter(Locale.US);
    }
}

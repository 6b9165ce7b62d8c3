package dev.effectful.core.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static dev.effectful.core.config.NearestWord.nearest;

/**
 * How a key's text becomes its value: durations, sizes, words, booleans, name lists. Each throws an
 * {@link IllegalArgumentException} whose message names the key, the value and what is allowed; the reader
 * turns it into a {@link EffectfulConfig.Problem}, so every source's value is checked by the same rule.
 */
final class ValueParsers {

    private ValueParsers() {
    }

    /**
     * The longest duration any key takes: what a signed 64-bit count of nanoseconds holds (about 292
     * years). Deadlines and retention cut-offs are computed in nanoseconds and milliseconds; a longer
     * value would overflow there, at the first call, as a retryable error no retry can fix.
     */
    static final Duration MAX_DURATION = Duration.ofDays(106_751);

    /**
     * A list of tool names and kind words, lower-cased; a blank list is none. Separated by commas, or by
     * plus signs where a comma separates something else (the agent argument: {@code approval=money+refund}).
     */
    static Set<String> parseNames(String key, String v) {
        Set<String> out = new java.util.TreeSet<>();
        for (String part : v.split("[,;+\\s]+")) {
            String n = part.strip().toLowerCase(Locale.ROOT);
            if (n.isEmpty()) {
                continue;
            }
            if (!n.matches("[a-z0-9_.:$-]+")) {
                throw new IllegalArgumentException(key + "=" + v + ": '" + part.strip() + "' is neither a tool name nor a"
                        + " kind (a comma-separated list such as money,delete_account)");
            }
            out.add(n);
        }
        return Set.copyOf(out);
    }

    static Duration parseDuration(String key, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
            Duration d;
            if (s.startsWith("p")) {
                d = Duration.parse(s.toUpperCase(Locale.ROOT));
            } else if (s.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            } else {
                long n = Long.parseLong(s.substring(0, s.length() - 1));
                d = switch (s.charAt(s.length() - 1)) {
                    case 'd' -> Duration.ofDays(n);
                    case 'h' -> Duration.ofHours(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 's' -> Duration.ofSeconds(n);
                    default -> throw new IllegalArgumentException();
                };
            }
            if (d.isNegative()) {
                throw new IllegalArgumentException();
            }
            if (d.compareTo(MAX_DURATION) > 0) {
                throw new IllegalArgumentException(key + "=" + v + " is too long: at most " + MAX_DURATION.toDays()
                        + "d (a deadline or cut-off must stay a count of nanoseconds)");
            }
            return d;
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(key)) {
                throw e;
            }
            throw new IllegalArgumentException(key + "=" + v + " is not a duration (7d, 12h, 30m, 45s, 500ms or ISO-8601 PT1H)");
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not a duration (7d, 12h, 30m, 45s, 500ms or ISO-8601 PT1H)");
        }
    }

    static long parseBytes(String key, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
            int shift = switch (s.charAt(s.length() - 1)) {
                case 'k' -> 10;
                case 'm' -> 20;
                case 'g' -> 30;
                default -> 0;
            };
            long n = Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1));
            if (n < 0 || n > Long.MAX_VALUE >> shift) {
                throw new IllegalArgumentException(); // n << shift would wrap round to a small or negative size
            }
            return n << shift;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not a size (bytes, or with k, m, g)");
        }
    }

    static <E extends Enum<E>> E parseEnum(Class<E> type, String key, String v) {
        List<String> words = Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT)).toList();
        return Enum.valueOf(type, parseWord(key, v, words).toUpperCase(Locale.ROOT));
    }

    /** {@code true} or {@code false} (case-insensitive), or an error naming them. */
    static boolean parseBoolean(String key, String v) {
        return Boolean.parseBoolean(parseWord(key, v, List.of("true", "false")));
    }

    /** One of {@code allowed} (case-insensitive), or an error naming them and the nearest. */
    static String parseWord(String key, String v, List<String> allowed) {
        String w = v.trim().toLowerCase(Locale.ROOT);
        if (!allowed.contains(w)) {
            throw new IllegalArgumentException(key + "=" + v + " is not one of " + String.join(", ", allowed)
                    + "; did you mean " + nearest(w, allowed) + "?");
        }
        return w;
    }
}

package dev.effectful.runtime.classify;

import dev.effectful.EffectApplied;
import dev.effectful.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's overrides from the file named by {@code effectful.classifier.file}; the format is
 * described on {@link Classifier}. Parsed by hand rather than with {@link java.util.Properties} so
 * that a bad line can be reported by its number instead of being silently taken apart.
 */
final class OverridesFile {

    /**
     * What a line of the file says.
     *
     * @param status the outcome
     * @param effect the effect flag
     */
    record Verdict(Status status, EffectApplied effect) {
    }

    static final OverridesFile EMPTY = new OverridesFile(Map.of(), Map.of());

    private static final String HTTP_PREFIX = "http.";

    private final Map<String, Verdict> byClassName;
    private final Map<Integer, Verdict> byStatus;

    private OverridesFile(Map<String, Verdict> byClassName, Map<Integer, Verdict> byStatus) {
        this.byClassName = Map.copyOf(byClassName);
        this.byStatus = Map.copyOf(byStatus);
    }

    /** Reads {@code file} as UTF-8. */
    static OverridesFile read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    }

    /** Parses the lines of a file; {@code source} names it in errors. */
    static OverridesFile parse(List<String> lines, String source) {
        Map<String, Verdict> byClassName = new HashMap<>();
        Map<Integer, Verdict> byStatus = new HashMap<>();
        Map<String, Integer> firstSeen = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            int lineNo = i + 1;
            String raw = lines.get(i);
            String line = stripComment(raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw bad(source, lineNo, raw, "expected <exception class or http.<status>> = <outcome>[/<effect>]");
            }
            String key = line.substring(0, eq).strip();
            Verdict verdict = verdict(line.substring(eq + 1).strip(), source, lineNo, raw);
            Integer earlier = firstSeen.putIfAbsent(key, lineNo);
            if (earlier != null) {
                throw bad(source, lineNo, raw, "'" + key + "' is already set on line " + earlier);
            }
            if (key.startsWith(HTTP_PREFIX)) {
                byStatus.put(status(key.substring(HTTP_PREFIX.length()), source, lineNo, raw), verdict);
            } else if (isClassName(key)) {
                byClassName.put(key, verdict);
            } else {
                throw bad(source, lineNo, raw, "'" + key + "' is neither a fully qualified exception class nor http.<status>");
            }
        }
        return new OverridesFile(byClassName, byStatus);
    }

    /** The verdict for one link: its class or nearest named superclass first, then its HTTP status. */
    Optional<Verdict> match(Link link) {
        if (!byClassName.isEmpty()) {
            for (Class<?> c = link.thrown().getClass(); c != null; c = c.getSuperclass()) {
                Verdict v = byClassName.get(c.getName());
                if (v != null) {
                    return Optional.of(v);
                }
            }
        }
        return link.http().flatMap(h -> forStatus(h.status()));
    }

    /** The verdict for an HTTP status, if the file names it. */
    Optional<Verdict> forStatus(int status) {
        return Optional.ofNullable(byStatus.get(status));
    }

    private static Verdict verdict(String value, String source, int lineNo, String raw) {
        int slash = value.indexOf('/');
        String outcomeWord = (slash < 0 ? value : value.substring(0, slash)).strip().toLowerCase(Locale.ROOT);
        Status status = switch (outcomeWord) {
            case "retryable" -> Status.RETRYABLE;
            case "permanent" -> Status.PERMANENT;
            case "unknown" -> Status.UNKNOWN;
            default -> throw bad(source, lineNo, raw,
                    "outcome '" + outcomeWord + "' is not one of retryable, permanent, unknown");
        };
        if (slash < 0) {
            // the defaults of the contract: a refusal did nothing, an unknown may have done anything
            return new Verdict(status, status == Status.UNKNOWN ? EffectApplied.UNKNOWN : EffectApplied.NO);
        }
        String effectWord = value.substring(slash + 1).strip().toLowerCase(Locale.ROOT);
        EffectApplied effect = switch (effectWord) {
            case "yes" -> EffectApplied.YES;
            case "no" -> EffectApplied.NO;
            case "partial" -> EffectApplied.PARTIAL;
            case "unknown" -> EffectApplied.UNKNOWN;
            default -> throw bad(source, lineNo, raw,
                    "effect '" + effectWord + "' is not one of yes, no, partial, unknown");
        };
        return new Verdict(status, effect);
    }

    private static int status(String digits, String source, int lineNo, String raw) {
        if (digits.length() == 3 && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            int status = Integer.parseInt(digits);
            if (status >= 100 && status <= 599) {
                return status;
            }
        }
        throw bad(source, lineNo, raw, "'" + digits + "' is not an HTTP status (100-599)");
    }

    private static boolean isClassName(String key) {
        String[] parts = key.split("\\.", -1);
        if (parts.length < 2) {
            return false; // exceptions in the default package cannot be meant; a typo is likelier
        }
        for (String part : parts) {
            if (part.isEmpty() || !Character.isJavaIdentifierStart(part.codePointAt(0))
                    || !part.codePoints().allMatch(Character::isJavaIdentifierPart)) {
                return false;
            }
        }
        return true;
    }

    private static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }

    private static IllegalArgumentException bad(String source, int lineNo, String raw, String problem) {
        return new IllegalArgumentException("effectful.classifier.file " + source + " line " + lineNo + ": "
                + problem + " (line: '" + raw.strip() + "')");
    }
}

package dev.effectful.cli;

import java.util.Map;

/**
 * ANSI colour, only when a person is looking: on a terminal and without {@code NO_COLOR}
 * (https://no-color.org). Piped output and files stay plain so grep and scripts see the same text.
 */
final class Style {
    private static final String RESET = "\u001b[0m";
    private final boolean enabled;

    Style(boolean enabled) {
        this.enabled = enabled;
    }

    static Style detect(boolean terminal, Map<String, String> env) {
        String noColor = env.get("NO_COLOR");
        boolean dumb = "dumb".equals(env.get("TERM"));
        return new Style(terminal && !dumb && (noColor == null || noColor.isEmpty()));
    }

    boolean enabled() {
        return enabled;
    }

    String paint(String code, String text) {
        return enabled && code != null ? "\u001b[" + code + "m" + text + RESET : text;
    }

    /** The colour of an outcome or state word: green settled, yellow will retry, red needs a person. */
    static String codeFor(String word) {
        if (word == null) {
            return null;
        }
        return switch (word) {
            case "ok", "found", "yes", "resolved" -> "32";
            case "retryable", "absent", "dedup", "refused", "partial" -> "33";
            case "permanent", "no" -> "31";
            case "unknown", "no-outcome", "failed", "probe-failed", "UNRESOLVED" -> "1;31";
            default -> null;
        };
    }
}

package dev.effectful.core.log;

import dev.effectful.core.json.JsonText;

/**
 * Text from outside (task and actor ids, tool messages, exception text) made safe to print on one
 * line of a log or a terminal: every C0 control character, DEL and every C1 control character is
 * written as a visible escape ({@code \n}, {@code \r}, {@code \t}, else a backslash, {@code u} and four hex digits), so a
 * forged id cannot start a new log line or send an ESC sequence to an operator's terminal. This is
 * for display only; JSON is written by {@link JsonText}, and {@link #field} uses it for values that
 * need quoting.
 */
public final class PrintableText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PrintableText() {
    }

    /** Whether {@code c} is a C0 control, DEL or a C1 control. */
    public static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c < 0xa0);
    }

    /** {@code s} with its control characters escaped; the same instance when it has none. */
    public static String escape(String s) {
        if (s == null) {
            return null;
        }
        int first = -1;
        for (int i = 0, n = s.length(); i < n; i++) {
            if (isControl(s.charAt(i))) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16).append(s, 0, first);
        for (int i = first, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (!isControl(c)) {
                sb.append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else {
                sb.append('\\').append('u').append("00").append(HEX[c >> 4 & 0xf]).append(HEX[c & 0xf]);
            }
        }
        return sb.toString();
    }

    /**
     * A value for a {@code key=value} log line: as it is when it is plain (no space, {@code =},
     * quote, backslash or control character), else quoted as a JSON string, so a forged id
     * cannot pose as another field ({@code "t outcome=ok"}) either. Null prints as {@code -}.
     */
    public static String field(String value) {
        if (value == null) {
            return "-";
        }
        for (int i = 0, n = value.length(); i < n; i++) {
            char c = value.charAt(i);
            if (c == ' ' || c == '=' || c == '"' || c == '\\' || isControl(c) || Character.isWhitespace(c)) {
                return escape(JsonText.appendQuoted(new StringBuilder(value.length() + 8), value).toString());
            }
        }
        return value.isEmpty() ? "\"\"" : value;
    }
}

package dev.effectful.runtime.classify;

/** One-line messages: the model reads them as the tool's answer, so no stack traces, no newlines. */
final class Messages {

    /** Long enough for an error body's gist, short enough not to flood the model's context. */
    static final int MAX_CHARS = 300;

    private Messages() {
    }

    /** "label: detail", or just the label when there is no detail; one line, capped. */
    static String line(String label, String detail) {
        String d = clean(detail);
        return cap(d.isEmpty() ? clean(label) : clean(label) + ": " + d);
    }

    /** The exception's own message; empty when it has none or reading it fails. */
    static String detailOf(Throwable t) {
        try {
            String m = t.getMessage();
            return m == null ? "" : m;
        } catch (RuntimeException brokenGetMessage) {
            return "";
        }
    }

    /** The simple class name of {@code t}. */
    static String nameOf(Throwable t) {
        return DefaultRules.simpleName(t.getClass().getName());
    }

    private static String clean(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(Math.min(s.length(), MAX_CHARS + 16));
        boolean space = false;
        for (int i = 0; i < s.length() && sb.length() <= MAX_CHARS; i++) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c)) {
                space = sb.length() > 0;
            } else {
                if (space) {
                    sb.append(' ');
                    space = false;
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String cap(String s) {
        if (s.length() <= MAX_CHARS) {
            return s;
        }
        int cut = MAX_CHARS - 1;
        if (Character.isHighSurrogate(s.charAt(cut - 1))) {
            cut--; // never split a surrogate pair
        }
        return s.substring(0, cut) + "…";
    }
}

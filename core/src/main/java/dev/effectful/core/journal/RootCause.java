package dev.effectful.core.journal;

/**
 * The innermost cause of a failure, as a person reads it in one line: its simple class name and message.
 * Chronicle and the JDK wrap the reason a journal cannot be read or written (a full disk, a truncated file)
 * in layers of their own exceptions; only the last one says what went wrong.
 */
public final class RootCause {

    private RootCause() {
    }

    /** The root cause's simple class name and whole message. */
    public static String message(Throwable e) {
        Throwable t = root(e);
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    /** The root cause's simple class name and the first line of its message: for an operator's one-line error. */
    public static String firstLine(Throwable e) {
        Throwable t = root(e);
        String m = t.getMessage();
        if (m != null) {
            m = m.lines().findFirst().orElse("");
        }
        return t.getClass().getSimpleName() + (m == null || m.isEmpty() ? "" : ": " + m);
    }

    private static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}

package dev.effectful.core.values;

/**
 * Says briefly why a value could not be turned into JSON, for the journal's markers. Serialization
 * runs user getters, so any throwable may surface; only those the JVM cannot recover from are
 * let through.
 */
final class Unserializable {

    private static final int MAX_REASON_CHARS = 200;

    private Unserializable() {
    }

    /** Rethrows errors that must not be swallowed (out of memory, internal JVM errors). */
    static void rethrowIfFatal(Throwable t) {
        if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
            throw (VirtualMachineError) t;
        }
    }

    /** {@code "<class name>: <short reason>"}. */
    static String describe(Object value, Throwable failure) {
        return (value == null ? "null" : value.getClass().getName()) + ": " + reason(failure);
    }

    static String reason(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof StackOverflowError || String.valueOf(failure.getMessage()).startsWith("Infinite recursion")) {
            // Jackson only spots direct self-references; a longer cycle overflows the stack.
            return "cyclic or too deeply nested";
        }
        String message = root instanceof com.fasterxml.jackson.core.JacksonException je ? je.getOriginalMessage() : root.getMessage();
        String text = root == failure || root instanceof com.fasterxml.jackson.core.JacksonException
                ? String.valueOf(message)
                : root.getClass().getSimpleName() + (message == null ? "" : " " + message);
        int eol = text.indexOf('\n');
        if (eol >= 0) {
            text = text.substring(0, eol);
        }
        return text.length() <= MAX_REASON_CHARS ? text : text.substring(0, MAX_REASON_CHARS) + "...";
    }
}

package dev.effectful.cli;

/**
 * A failure the operator can act on: printed as one line (never a stack trace) with its exit code.
 * At 3 a.m. the message has to say what is wrong and what to do, not where in the code it broke.
 */
final class CliException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    CliException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}

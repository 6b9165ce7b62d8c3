package dev.effectful.core.journal;

import java.io.IOException;

/** The journal directory cannot be used as it is; the problem says why and what to change. */
public final class JournalDirectoryException extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient JournalProblem problem;

    JournalDirectoryException(JournalProblem.Cause cause, String message) {
        super(message);
        this.problem = new JournalProblem(cause, message);
    }

    public JournalProblem problem() {
        return problem;
    }
}

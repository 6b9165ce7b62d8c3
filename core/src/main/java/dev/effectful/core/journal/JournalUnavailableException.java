package dev.effectful.core.journal;

/** The journal cannot take a record; the message names the directory and the cause. */
public class JournalUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient JournalProblem problem;

    public JournalUnavailableException(String message, Throwable cause) {
        super(message, cause);
        this.problem = new JournalProblem(JournalProblem.Cause.OTHER, message);
    }

    public JournalUnavailableException(String message) {
        this(message, (Throwable) null);
    }

    /** A typed problem: its cause decides what the refused caller may do. */
    public JournalUnavailableException(JournalProblem problem) {
        super(problem.message());
        this.problem = problem;
    }

    public JournalUnavailableException(JournalProblem problem, Throwable cause) {
        super(problem.message(), cause);
        this.problem = problem;
    }

    public JournalProblem problem() {
        return problem;
    }

    public Long retryAfterS() {
        return problem.retryAfterS();
    }
}

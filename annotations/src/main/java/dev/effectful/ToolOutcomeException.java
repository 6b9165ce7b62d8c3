package dev.effectful;

import java.util.Objects;

/**
 * Carries a failed {@link Outcome} out of a tool that does not return {@code Outcome}.
 *
 * <p>Its message is the outcome's compact JSON, because agent frameworks hand an exception's
 * message to the model word for word (LangChain4j marks it {@code isError=true}; Spring AI turns
 * a {@code RuntimeException} into the tool's reply but aborts the whole chat on a checked one).
 * The original exception, when there was one, is the cause; it never escapes by itself.
 *
 * <p>A tool body (or its result check) may throw one to state its outcome explicitly.
 */
public class ToolOutcomeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Outcome<?> outcome;

    /** An exception carrying {@code outcome}. */
    public ToolOutcomeException(Outcome<?> outcome) {
        this(outcome, null);
    }

    /** An exception carrying {@code outcome}, caused by {@code cause}. */
    public ToolOutcomeException(Outcome<?> outcome, Throwable cause) {
        super(Objects.requireNonNull(outcome, "outcome").toJson(), cause);
        this.outcome = outcome;
    }

    /** The outcome this exception carries. */
    public Outcome<?> outcome() {
        return outcome;
    }
}

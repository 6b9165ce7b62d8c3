package dev.effectful.runtime.approval;

import java.time.Duration;

/**
 * Someone who can be asked, right now, whether an intent that needs a person's approval may run: the user
 * of the MCP client whose request the current thread serves ({@code elicitation/create}). The framework
 * integration binds one to the thread for as long as it serves that request ({@link #bind}); the engine asks
 * it once per intent, when it journals the intent's approval request, and records the answer as the verdict.
 *
 * <p>An asker never decides anything itself: it carries the question to a person and their answer back.
 * Whatever goes wrong on the way ({@link Answer.NotAnswered}) leaves the request waiting for the console or
 * the CLI, exactly as if nobody had been asked.
 */
public interface ApprovalAsker {

    /**
     * What the person is shown: the tool, the intent's target and the arguments as journaled ({@code @Redact}
     * values already replaced by their fingerprints: nothing here is plaintext of a redacted argument).
     *
     * @param tool      the tool's name (its verb)
     * @param kind      the tool's declared kind word ({@code money}, {@code send}, ...)
     * @param target    the intent's target: the canonical JSON of its {@code @IntentKey} values, or {@code #n}
     * @param args      the arguments as the {@code approval_requested} record holds them (JSON), or null
     * @param task      the task's id
     * @param actor     the task's actor (empty: none named)
     * @param intentKey the intent's key
     */
    record Question(String tool, String kind, String target, String args, String task, String actor,
                    String intentKey) {

        /** One short paragraph for the person, naming what would happen if they approve. */
        public String message() {
            StringBuilder sb = new StringBuilder(160);
            sb.append("Approve ").append(tool).append(" (").append(kind).append(") on ").append(target);
            if (args != null && !args.isEmpty()) {
                sb.append(" with arguments ").append(args);
            }
            sb.append("? Task ").append(task);
            if (actor != null && !actor.isEmpty()) {
                sb.append(", for ").append(actor);
            }
            sb.append(", intent ").append(intentKey).append(". Accept runs it once; decline refuses it for good"
                    + " (a note says why).");
            return sb.toString();
        }
    }

    /** What came back. */
    sealed interface Answer permits Answer.Approved, Answer.Denied, Answer.NotAnswered {

        /** The person accepted: the intent runs once. */
        record Approved(String note) implements Answer {
        }

        /** The person declined: the intent is refused for good, with their words (null: none given). */
        record Denied(String words) implements Answer {
        }

        /** No verdict: cancelled, timed out, not supported, or failed; {@code why} says which, for the log and the answer. */
        record NotAnswered(String why) implements Answer {
        }
    }

    /**
     * Asks the person and waits at most {@code wait} for their answer. Must not throw for anything the
     * person or the transport did: that is {@link Answer.NotAnswered}. The engine still treats a throw as
     * no answer.
     */
    Answer ask(Question question, Duration wait);

    /** How the verdict reached the journal, its {@code via} field ({@code elicitation}). */
    String via();

    /** The one asker bound to this thread: the request it serves came from a client that may be asked. */
    static ApprovalAsker current() {
        return Bound.CURRENT.get();
    }

    /**
     * Binds {@code asker} to this thread until the returned binding is closed, which restores what was bound
     * before (a nested request's asker is its own, the outer one's comes back after it).
     */
    static Binding bind(ApprovalAsker asker) {
        ApprovalAsker previous = Bound.CURRENT.get();
        Bound.CURRENT.set(asker);
        return new Binding(previous);
    }

    /** Undoes one {@link #bind}. */
    final class Binding implements AutoCloseable {
        private final ApprovalAsker previous;

        private Binding(ApprovalAsker previous) {
            this.previous = previous;
        }

        @Override
        public void close() {
            if (previous == null) {
                Bound.CURRENT.remove();
            } else {
                Bound.CURRENT.set(previous);
            }
        }
    }

    /** Holder of the thread's binding (an interface cannot hold a private field). */
    final class Bound {
        private static final ThreadLocal<ApprovalAsker> CURRENT = new ThreadLocal<>();

        private Bound() {
        }
    }
}

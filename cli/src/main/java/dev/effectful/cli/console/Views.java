package dev.effectful.cli.console;

import java.util.List;

/**
 * What the console's pages show, as plain values: the templates read these and nothing else, so a
 * page cannot reach the journal, the store or a secret by accident. Every string here is text as the
 * journal has it (redacted arguments are already fingerprints there); the template engine escapes it.
 */
public final class Views {

    private Views() {
    }

    /** What every page needs besides its own content. */
    public record Frame(String title, String source, String csrf, boolean readOnly, String person, long version,
                        String now) {
        /** The version as the page's live script reads it; null (no attribute) on the answer to a form. */
        public String liveVersion() {
            return version >= 0 ? Long.toString(version) : null;
        }
    }

    /**
     * An intent a person may have to settle.
     *
     * @param settles the next call settles it by itself (probe, idempotent, keyable, key sent): shown apart
     * @param inFlight written by the live writer and still running: not waiting for anybody yet
     */
    public record Held(String key, String shortKey, String task, String actor, String tool, String kind, String state,
                       String probe, int attempt, String started, String age, String args, boolean settles,
                       boolean inFlight, String host) {
    }

    /** One record of a task or an intent, on a timeline. */
    public record Event(String time, String type, String key, String shortKey, String tool, int attempt,
                        String outcome, String effect, String message, String args, boolean repeat) {
    }

    /** Calls of one tool in a window, by what they ended as. */
    public record ToolCount(String tool, long calls, long ok, long retryable, long permanent, long unknown,
                            long refused, long dedup) {
    }

    /** The overview page: counts, the oldest waiting item, and a search's matches. */
    public record Overview(long unresolved, long forPerson, long approvals, String oldestWaiting, List<ToolCount> lastHour,
                           List<ToolCount> lastDay, String query, List<Held> matches, boolean searched) {
    }

    /**
     * The "needs a person" page; approvals first: a model is waiting on each.
     *
     * @param cut what the page says when a list was cut to its oldest rows (a journal with very many
     *            intents waiting); null when every list is whole
     */
    public record Desk(List<Held> approvals, List<Held> forPerson, List<Held> settling, List<Held> inFlight,
                       String reading, String cut) {
        /** A desk with every list whole. */
        public Desk(List<Held> approvals, List<Held> forPerson, List<Held> settling, List<Held> inFlight, String reading) {
            this(approvals, forPerson, settling, inFlight, reading, null);
        }
    }

    /**
     * One intent, with its history and what a person can do.
     *
     * @param told        the message the model was last given for it
     * @param actable     a person's verdict would be taken now (it is unresolved)
     * @param approvable  it waits for a person's approval: the page offers approve and deny instead
     * @param cliApplied  the CLI command that does what "it applied" (or "approve") does
     */
    public record IntentPage(Held intent, List<Event> history, String told, String waitingSince, boolean actable,
                             boolean approvable, String cliApplied, String cliNotApplied) {
    }

    /** One task's calls in order; a repeat is shown under the intent it repeated. */
    public record TaskPage(String task, String actor, List<Event> events) {
    }

    /** What an action did, in the words the CLI would have printed. */
    public record Done(boolean ok, String heading, List<String> lines, String back) {
    }
}

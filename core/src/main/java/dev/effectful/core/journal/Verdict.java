package dev.effectful.core.journal;

/**
 * The verdict on an intent that waited for a person's approval, as an {@code approval} record, a request
 * file, the shared store and the CLI's JSON carry it.
 *
 * <p>Inside the process this enum is the value; on disk and in JSON it is {@link #word()}, exactly the
 * word journals have always carried ({@code verdict}: {@code approved}, {@code denied}, {@code expired}).
 * A verdict also names the intent's phase after it (the same word), so the state machine maps each one
 * with an exhaustive switch ({@code reentry.Phase.after}) and a verdict added here fails to compile there
 * until it is given its phase; {@code VerdictWordsTest} (cli) does the same for the CLI, the console and
 * the shared store's SQL.
 */
public enum Verdict {
    /** A person approved: the next call runs the body once. */
    APPROVED(true, true),
    /** A person denied: every call is refused for good, effect no. */
    DENIED(true, false),
    /** Nobody decided within {@code effectful.approval.timeout}: the engine refuses for good, effect no. */
    EXPIRED(false, false);

    private final boolean byPerson;
    private final boolean letsBodyRun;

    Verdict(boolean byPerson, boolean letsBodyRun) {
        this.byPerson = byPerson;
        this.letsBodyRun = letsBodyRun;
    }

    /** The word written in the journal, the request file and the shared store's phase column: its name in lower case. */
    public String word() {
        return JournalWord.wordOf(this);
    }

    /**
     * Whether a person gives this verdict (with {@code journal approve|deny} or the console); the engine
     * alone writes the others, so a request file asking for one is refused.
     */
    public boolean byPerson() {
        return byPerson;
    }

    /** Whether the next call of the intent runs its body; otherwise every call is refused for good. */
    public boolean letsBodyRun() {
        return letsBodyRun;
    }

    /**
     * What the {@code approval} record says of the effect: nothing when the body is yet to run (its own
     * outcome will say), {@link Effect#NO} when the verdict refuses it, since the body never ran.
     */
    public Effect effectApplied() {
        return letsBodyRun ? null : Effect.NO;
    }

    /** The verdict a word stands for; null for null or for a word this reader does not know. */
    public static Verdict fromWord(String word) {
        return JournalWord.byWord(Verdict.class, word);
    }
}

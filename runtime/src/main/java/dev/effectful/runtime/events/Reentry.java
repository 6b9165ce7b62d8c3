package dev.effectful.runtime.events;

/** How a call entered: the path re-entry sent it on. Its {@link #word()} is what every sink shows. */
public enum Reentry {
    /** The body ran (a first attempt, or attempt n+1 after a failure with no effect). */
    NEW("new"),
    /** Answered without the body from what was already known. */
    DEDUP("dedup"),
    /** The probe ran first (the last attempt's effect was unknown). */
    PROBE("probe"),
    /** Not run: waits for a person (unknown effect, no probe; a damaged record; a failed probe). */
    HELD("held"),
    /** Not run: refused (budget, Retry-After, journal down, arguments that cannot be keyed...). */
    REFUSED("refused"),
    /** Not run: its intent waits for a person's approval (requested by this call, or earlier). */
    APPROVAL("approval");

    private final String word;

    Reentry(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }
}

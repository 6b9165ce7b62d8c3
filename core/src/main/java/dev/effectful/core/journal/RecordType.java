package dev.effectful.core.journal;

import java.util.Locale;

/**
 * The kinds of journal record. A closed set: readers reject nothing, but only these are written. What a
 * record of each type does to its intent's state is said here, on the constant ({@link #startsIntent},
 * {@link #movesState}, {@link #sharedWithFleet}, {@link #note}); {@code StateTransitions} says how.
 */
public enum RecordType implements JournalWord {
    /** Written before a body runs: the intent to act. */
    INTENT(1, true, true, true, false, null),
    /** Written after a body returned or threw. */
    OUTCOME(2, true, true, true, false, null),
    /** A probe looked for the effect of an earlier attempt: found, absent or failed. */
    PROBE(3, true, true, true, false, null),
    /**
     * A repeat of a known-ok intent was answered from the journal; no body ran. Which process and thread
     * answered it is not worth its bytes on the hottest record there is.
     */
    DEDUP(4, false, false, false, true, null),
    /** A person's verdict on an unknown intent (CLI {@code resolve}). */
    RESOLUTION(5, true, true, true, false, null),
    /** A call was refused without running (held unknown, Retry-After not passed). */
    REFUSED(6, false, false, false, false, null),
    /**
     * A covered HTTP client (JDK {@code HttpClient}, {@code HttpURLConnection}, OkHttp) put the attempt's
     * key on a request, in the header {@code header} names; written before the request left. It leaves the
     * phase as it is and marks that attempt as one a re-run may repeat with the same key: the service saw
     * the key and deduplicates on it. Alone (its intent forgotten) it is no intent. It stays on the host
     * that wrote it: a shared store never hears of it, so another host probes or holds the intent. It is
     * written by the thread of its attempt's intent record, which names the process and thread.
     */
    KEY_SENT(7, false, true, false, true, "the intent key went out in header "),
    /**
     * The first call of an intent whose tool needs a person's approval (see {@code dev.effectful.Approval}):
     * no body ran, and none runs until an {@code approval} record says approved. It starts the intent (every
     * repeat waits on this one request, never a second) and a shared store is told of it, so every host
     * sees one request. Its {@code started} is when the request was made: expiry counts from it.
     */
    APPROVAL_REQUESTED(8, true, true, true, false, null),
    /**
     * A person's verdict on an approval request, or its expiry: {@code verdict} approved (the next call
     * runs the body), denied (refused permanent with the {@code note}) or expired (no verdict in time);
     * {@code by} names who gave it. Shared with the store like the request it answers.
     */
    APPROVAL(9, true, true, true, false, null);

    /** The word on disk, computed once: a record is written on every call. */
    private final String word = name().toLowerCase(Locale.ROOT);
    private final boolean startsIntent;
    private final boolean movesState;
    private final boolean sharedWithFleet;
    private final boolean omitsWriter;
    private final String note;

    private static final RecordType[] VALUES = values();

    private final int code;

    /**
     * @param code its one-byte code on disk: part of the journal format, never renumbered (codes up to 7
     *             fit the packed {@code head}; see {@code Codes})
     */
    RecordType(int code, boolean startsIntent, boolean movesState, boolean sharedWithFleet, boolean omitsWriter,
               String note) {
        this.code = code;
        this.startsIntent = startsIntent;
        this.movesState = movesState;
        this.sharedWithFleet = sharedWithFleet;
        this.omitsWriter = omitsWriter;
        this.note = note;
    }

    /** The one-byte code written for this record type. */
    @Override
    public int code() {
        return code;
    }

    /** Whether a record of this type is written without the writing process's pid and thread. */
    public boolean omitsWriter() {
        return omitsWriter;
    }

    /**
     * Whether a record of this type for a key never seen makes an intent of it. A dedup or refusal of
     * an unknown key never ran, and a {@code key_sent} whose intent retention forgot belongs to nothing.
     */
    public boolean startsIntent() {
        return startsIntent;
    }

    /**
     * Whether it changes anything the re-entry table reads; dedup and refused records change nothing but
     * the age, so retention needs no file for them.
     */
    public boolean movesState() {
        return movesState;
    }

    /** The opposite of {@link #movesState()}: a record of this type only ages an intent already known. */
    public boolean agesOnly() {
        return !movesState;
    }

    /** Whether a shared store (fleet mode) is told of it: reads, dedups, refusals and key_sent stay local. */
    public boolean sharedWithFleet() {
        return sharedWithFleet;
    }

    /** What the CLI's DETAIL column says about such a record before its own fields; null: nothing. */
    public String note() {
        return note;
    }

    /** The word on disk and in exports: {@code intent}, ..., {@code key_sent}, {@code approval_requested}, {@code approval}. */
    @Override
    public String word() {
        return word;
    }

    /** Empty when the word is not one of ours (a newer writer, or damage). */
    public static java.util.Optional<RecordType> ofWord(String word) {
        return java.util.Optional.ofNullable(JournalWord.byWord(VALUES, word));
    }
}

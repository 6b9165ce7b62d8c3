package dev.effectful.core.journal;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

import static dev.effectful.core.journal.RecordType.Fact.MOVES_STATE;
import static dev.effectful.core.journal.RecordType.Fact.OMITS_WRITER;
import static dev.effectful.core.journal.RecordType.Fact.SHARED_WITH_FLEET;
import static dev.effectful.core.journal.RecordType.Fact.STARTS_INTENT;

/**
 * The kinds of journal record. A closed set: readers reject nothing, but only these are written. What a
 * record of each type does to its intent's state is said here, on the constant ({@link #startsIntent},
 * {@link #movesState}, {@link #sharedWithFleet}, {@link #note}); {@code StateTransitions} says how.
 */
public enum RecordType implements JournalWord {
    // Codes on disk are the places in this list, from 1 (JournalWord): a new type goes last. Codes up to 7
    // fit the packed head of a record (see Codes).
    /** Written before a body runs: the intent to act. */
    INTENT(STARTS_INTENT, MOVES_STATE, SHARED_WITH_FLEET),
    /** Written after a body returned or threw. */
    OUTCOME(STARTS_INTENT, MOVES_STATE, SHARED_WITH_FLEET),
    /** A probe looked for the effect of an earlier attempt: found, absent or failed. */
    PROBE(STARTS_INTENT, MOVES_STATE, SHARED_WITH_FLEET),
    /**
     * A repeat of a known-ok intent was answered from the journal; no body ran. Which process and thread
     * answered it is not worth its bytes on the hottest record there is.
     */
    DEDUP(OMITS_WRITER),
    /** A person's verdict on an unknown intent (CLI {@code resolve}). */
    RESOLUTION(STARTS_INTENT, MOVES_STATE, SHARED_WITH_FLEET),
    /** A call was refused without running (held unknown, Retry-After not passed). */
    REFUSED,
    /**
     * A covered HTTP client (JDK {@code HttpClient}, {@code HttpURLConnection}, OkHttp) put the attempt's
     * key on a request, in the header {@code header} names; written before the request left. It leaves the
     * phase as it is and marks that attempt as one a re-run may repeat with the same key: the service saw
     * the key and deduplicates on it. Alone (its intent forgotten) it is no intent. It stays on the host
     * that wrote it: a shared store never hears of it, so another host probes or holds the intent. It is
     * written by the thread of its attempt's intent record, which names the process and thread.
     */
    KEY_SENT("the intent key went out in header ", MOVES_STATE, OMITS_WRITER),
    /**
     * The first call of an intent whose tool needs a person's approval (see {@code dev.effectful.Approval}):
     * no body ran, and none runs until an {@code approval} record says approved. It starts the intent (every
     * repeat waits on this one request, never a second) and a shared store is told of it, so every host
     * sees one request. Its {@code started} is when the request was made: expiry counts from it.
     */
    APPROVAL_REQUESTED(STARTS_INTENT, MOVES_STATE, SHARED_WITH_FLEET),
    /**
     * A person's verdict on an approval request, or its expiry: {@code verdict} approved (the next call
     * runs the body), denied (refused permanent with the {@code note}) or expired (no verdict in time);
     * {@code by} names who gave it. Shared with the store like the request it answers.
     */
    APPROVAL(STARTS_INTENT, MOVES_STATE, SHARED_WITH_FLEET);

    /** What holds for a record of a type: each constant above names its own, so none is left to a default. */
    public enum Fact {
        /** For a key never seen it makes an intent ({@link RecordType#startsIntent()}). */
        STARTS_INTENT,
        /** It changes what the re-entry table reads ({@link RecordType#movesState()}). */
        MOVES_STATE,
        /** A shared store hears of it ({@link RecordType#sharedWithFleet()}). */
        SHARED_WITH_FLEET,
        /** Written without the writer's pid and thread ({@link RecordType#omitsWriter()}). */
        OMITS_WRITER
    }

    private final Set<Fact> facts;
    private final String note;

    RecordType(Fact... facts) {
        this(null, facts);
    }

    RecordType(String note, Fact... facts) {
        this.note = note;
        this.facts = facts.length == 0 ? EnumSet.noneOf(Fact.class) : EnumSet.copyOf(Arrays.asList(facts));
    }

    /** Whether a record of this type is written without the writing process's pid and thread. */
    public boolean omitsWriter() {
        return facts.contains(Fact.OMITS_WRITER);
    }

    /**
     * Whether a record of this type for a key never seen makes an intent of it. A dedup or refusal of
     * an unknown key never ran, and a {@code key_sent} whose intent retention forgot belongs to nothing.
     */
    public boolean startsIntent() {
        return facts.contains(Fact.STARTS_INTENT);
    }

    /**
     * Whether it changes anything the re-entry table reads; dedup and refused records change nothing but
     * the age, so retention needs no file for them.
     */
    public boolean movesState() {
        return facts.contains(Fact.MOVES_STATE);
    }

    /** The opposite of {@link #movesState()}: a record of this type only ages an intent already known. */
    public boolean agesOnly() {
        return !movesState();
    }

    /** Whether a shared store (fleet mode) is told of it: reads, dedups, refusals and key_sent stay local. */
    public boolean sharedWithFleet() {
        return facts.contains(Fact.SHARED_WITH_FLEET);
    }

    /** What the CLI's DETAIL column says about such a record before its own fields; null: nothing. */
    public String note() {
        return note;
    }

    /** Empty when the word is not one of ours (a newer writer, or damage). */
    public static java.util.Optional<RecordType> ofWord(String word) {
        return java.util.Optional.ofNullable(JournalWord.byWord(RecordType.class, word));
    }
}

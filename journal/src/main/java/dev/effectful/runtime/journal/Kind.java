package dev.effectful.runtime.journal;

import java.util.Locale;

/**
 * The effect kind of a call as the journal records it: what the tool declared (`EffectKind`; docs/API.md).
 *
 * <p>Inside the process this enum is the value; on disk it is {@link #word()}, exactly the word
 * journals have always carried. Only the codecs ({@link RecordCodec}, the index snapshot) turn a
 * word back into a constant, with {@link #fromWord}. The CLI loads this class without the API's
 * classes, so it names none of them; the engine's {@code ApiWords} maps to and from the API's enums.
 */
public enum Kind {
    // (code on disk, whether a repeat is harmless); a code is part of the journal format: never renumbered
    READ(1, true), IDEMPOTENT(2, true), CREATE(3, false), SEND(4, false), MONEY(5, false), DESTRUCTIVE(6, false);

    /** Running the body again changes nothing by itself (see {@link #repeatIsHarmless()}). */
    private final boolean repeatIsHarmless;

    /** The word on disk, computed once: a record is written on every call. */
    private final String word = name().toLowerCase(Locale.ROOT);

    private static final Kind[] VALUES = values();

    private final int code;

    Kind(int code, boolean repeatIsHarmless) {
        this.code = code;
        this.repeatIsHarmless = repeatIsHarmless;
    }

    /** The one-byte code written for this kind (see {@code Codes}). */
    public int code() {
        return code;
    }

    /**
     * Whether a repeat of the body changes nothing, so an attempt whose outcome is unknown may run again
     * without a probe or a person. The engine's re-entry table, the CLI's "settles by itself" column and
     * the test kit's audit all ask this; none keeps its own list.
     */
    public boolean repeatIsHarmless() {
        return repeatIsHarmless;
    }

    /**
     * Whether an attempt of this kind whose outcome is unknown may simply run again: its repeat is
     * harmless, or it carries a key the receiver deduplicates on.
     *
     * @param keyed the tool declares {@code keyable = true} (the user's promise), or a covered client was seen
     *              sending the unknown attempt's key ({@code key_sent})
     */
    public boolean runsAgainAfterUnknown(boolean keyed) {
        return repeatIsHarmless || keyed;
    }

    /** Whether the next call settles an unknown outcome without a person: it probes first, or runs again. */
    public boolean settlesByItself(boolean keyed, boolean hasProbe) {
        return hasProbe || runsAgainAfterUnknown(keyed);
    }

    /** The lower-case word written in the journal and shown by the CLI. */
    public String word() {
        return word;
    }

    /** The constant a word on disk stands for; null for null or for a word this reader does not know. */
    public static Kind fromWord(String word) {
        if (word == null) {
            return null;
        }
        for (Kind v : VALUES) {
            if (v.word().equals(word)) {
                return v;
            }
        }
        return null;
    }
}

package dev.effectful.core.journal;

/**
 * A closed word of the journal (record type, kind, outcome, effect, probe): the lower-case word it is
 * written as, and its one-byte code on disk ({@link Codes}). Each enum keeps its word and code in fields
 * of its own constants (a record is written on every call: neither is computed then); the lookup of a
 * word read back is this interface's, for all of them.
 */
public interface JournalWord {

    /** The lower-case word written in the journal and shown by the CLI. */
    String word();

    /** The one-byte code written for this constant: part of the journal format, never renumbered. */
    int code();

    /** The constant of {@code values} a word on disk stands for; null for null or for a word this reader does not know. */
    static <E extends JournalWord> E byWord(E[] values, String word) {
        if (word == null) {
            return null;
        }
        for (E v : values) {
            if (v.word().equals(word)) {
                return v;
            }
        }
        return null;
    }
}

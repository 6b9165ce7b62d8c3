package dev.effectful.core.journal;

/**
 * The closed words of the journal (record type, kind, outcome, effect, probe) as one-byte codes on
 * disk: "outcome" costs 3 bytes with its field number instead of 10. A constant's code is its place in
 * its enum, from 1 ({@link JournalWord#code()}): the numbers are part of the journal format, so a
 * constant is never moved and a new one goes last ({@code CodesTest} pins them).
 */
final class Codes {

    private static final RecordType[] TYPES = RecordType.values();
    private static final Kind[] KINDS = Kind.values();
    private static final OutcomeWord[] OUTCOMES = OutcomeWord.values();
    private static final Effect[] EFFECTS = Effect.values();
    private static final ProbeResult[] PROBES = ProbeResult.values();

    private Codes() {
    }

    /** The code of a closed word, from 1; 0 for a value that is none of them. */
    static int of(Enum<?> value) {
        return value instanceof JournalWord w ? w.code() : 0;
    }

    /** The word on disk of a closed word that has no code. */
    static String word(Enum<?> value) {
        if (value instanceof JournalWord w) {
            return w.word();
        }
        throw new IllegalArgumentException("not a journal word: " + value);
    }

    // a code this reader does not know (a newer writer, or damage) reads as null, like an unknown word
    static RecordType type(int code) {
        return at(TYPES, code);
    }

    static Kind kind(int code) {
        return at(KINDS, code);
    }

    static OutcomeWord outcome(int code) {
        return at(OUTCOMES, code);
    }

    static Effect effect(int code) {
        return at(EFFECTS, code);
    }

    static ProbeResult probe(int code) {
        return at(PROBES, code);
    }

    private static <T> T at(T[] table, int code) {
        return code > 0 && code <= table.length ? table[code - 1] : null;
    }
}

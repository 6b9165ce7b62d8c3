package dev.effectful.core.journal;

/**
 * The closed words of the journal (record type, kind, outcome, effect, probe) as one-byte codes on
 * disk: "outcome" costs 3 bytes with its field number instead of 10. Each constant carries its own
 * code ({@code Kind.MONEY.code()}): the numbers are part of the journal format, never renumbered, a new
 * constant takes the next free one. These tables are built from the constants, and a duplicate or an
 * out-of-range code fails this class's initialisation, so a build with one never writes a record.
 */
final class Codes {

    private static final RecordType[] TYPES = byCode(RecordType.values(), RecordType::code, RecordType[]::new);
    private static final Kind[] KINDS = byCode(Kind.values(), Kind::code, Kind[]::new);
    private static final OutcomeWord[] OUTCOMES = byCode(OutcomeWord.values(), OutcomeWord::code, OutcomeWord[]::new);
    private static final Effect[] EFFECTS = byCode(Effect.values(), Effect::code, Effect[]::new);
    private static final ProbeResult[] PROBES = byCode(ProbeResult.values(), ProbeResult::code, ProbeResult[]::new);

    private Codes() {
    }

    /** The code of a closed word, 1..127; 0 for a value that is none of them. */
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
        return code > 0 && code < table.length ? table[code] : null;
    }

    /** The constants indexed by their code; throws on a code out of 1..127 or given twice. */
    private static <T extends Enum<T>> T[] byCode(T[] constants, java.util.function.ToIntFunction<T> code,
                                                  java.util.function.IntFunction<T[]> array) {
        int max = 0;
        for (T c : constants) {
            max = Math.max(max, code.applyAsInt(c));
        }
        T[] table = array.apply(max + 1);
        for (T c : constants) {
            int n = code.applyAsInt(c);
            if (n < 1 || n > 127 || table[n] != null) {
                throw new IllegalStateException("journal code " + n + " of " + c + (n < 1 || n > 127
                        ? " is outside 1..127" : " is also " + table[n]) + ": codes are part of the journal format");
            }
            table[n] = c;
        }
        return table;
    }
}

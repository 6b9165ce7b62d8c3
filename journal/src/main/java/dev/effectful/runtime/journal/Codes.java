package dev.effectful.runtime.journal;

/**
 * The closed words of the journal (record type, kind, outcome, effect, probe) as one-byte codes on
 * disk: "outcome" costs 3 bytes with its field number instead of 10. The numbers are part of the
 * journal format, listed here by constant (never by ordinal): never renumber one, only append. A
 * constant missing from its table (added to its enum without a code) is written as its word, which
 * every reader still reads, so adding a kind or a record type needs no edit here.
 */
final class Codes {

    private static final RecordType[] TYPES = {null, RecordType.INTENT, RecordType.OUTCOME, RecordType.PROBE,
            RecordType.DEDUP, RecordType.RESOLUTION, RecordType.REFUSED, RecordType.KEY_SENT,
            RecordType.APPROVAL_REQUESTED, RecordType.APPROVAL};
    private static final Kind[] KINDS = {null, Kind.READ, Kind.IDEMPOTENT, Kind.CREATE, Kind.SEND, Kind.MONEY,
            Kind.DESTRUCTIVE};
    private static final OutcomeWord[] OUTCOMES = {null, OutcomeWord.OK, OutcomeWord.RETRYABLE,
            OutcomeWord.PERMANENT, OutcomeWord.UNKNOWN};
    private static final Effect[] EFFECTS = {null, Effect.YES, Effect.NO, Effect.PARTIAL, Effect.UNKNOWN};
    private static final ProbeResult[] PROBES = {null, ProbeResult.FOUND, ProbeResult.ABSENT, ProbeResult.FAILED};

    private static final int[] TYPE_CODE = codes(RecordType.values().length, TYPES);
    private static final int[] KIND_CODE = codes(Kind.values().length, KINDS);
    private static final int[] OUTCOME_CODE = codes(OutcomeWord.values().length, OUTCOMES);
    private static final int[] EFFECT_CODE = codes(Effect.values().length, EFFECTS);
    private static final int[] PROBE_CODE = codes(ProbeResult.values().length, PROBES);

    private Codes() {
    }

    /** The code of a closed word, 1..127; 0 when it has none (then its word is written). */
    static int of(Enum<?> value) {
        int o = value.ordinal();
        if (value instanceof RecordType) {
            return TYPE_CODE[o];
        } else if (value instanceof Kind) {
            return KIND_CODE[o];
        } else if (value instanceof OutcomeWord) {
            return OUTCOME_CODE[o];
        } else if (value instanceof Effect) {
            return EFFECT_CODE[o];
        } else if (value instanceof ProbeResult) {
            return PROBE_CODE[o];
        }
        return 0;
    }

    /** The word on disk of a closed word that has no code. */
    static String word(Enum<?> value) {
        if (value instanceof RecordType t) {
            return t.word();
        } else if (value instanceof Kind k) {
            return k.word();
        } else if (value instanceof OutcomeWord w) {
            return w.word();
        } else if (value instanceof Effect e) {
            return e.word();
        } else if (value instanceof ProbeResult p) {
            return p.word();
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

    private static int[] codes(int constants, Enum<?>[] table) {
        int[] out = new int[constants];
        for (int code = 1; code < table.length; code++) {
            out[table[code].ordinal()] = code;
        }
        return out;
    }
}

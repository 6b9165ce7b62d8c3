package dev.effectful.core.journal;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one-byte codes are part of the journal format: journals on disk hold them. This pins every code
 * written so far, so renumbering a constant (or inserting one before another) fails here, not in a
 * journal read back wrong; a new constant only adds a line. Every constant has a code of its own.
 */
class CodesTest {

    @Test
    void theCodesOnDiskNeverChange() {
        assertThat(codes(RecordType.values(), RecordType::code)).containsAllEntriesOf(Map.of(
                "INTENT", 1, "OUTCOME", 2, "PROBE", 3, "DEDUP", 4, "RESOLUTION", 5, "REFUSED", 6, "KEY_SENT", 7,
                "APPROVAL_REQUESTED", 8, "APPROVAL", 9));
        assertThat(codes(Kind.values(), Kind::code)).containsAllEntriesOf(Map.of(
                "READ", 1, "IDEMPOTENT", 2, "CREATE", 3, "SEND", 4, "MONEY", 5, "DESTRUCTIVE", 6));
        assertThat(codes(OutcomeWord.values(), OutcomeWord::code)).containsAllEntriesOf(Map.of(
                "OK", 1, "RETRYABLE", 2, "PERMANENT", 3, "UNKNOWN", 4));
        assertThat(codes(Effect.values(), Effect::code)).containsAllEntriesOf(Map.of(
                "YES", 1, "NO", 2, "PARTIAL", 3, "UNKNOWN", 4));
        assertThat(codes(ProbeResult.values(), ProbeResult::code)).containsAllEntriesOf(Map.of(
                "FOUND", 1, "ABSENT", 2, "FAILED", 3));
    }

    @Test
    void everyConstantHasItsOwnCodeAndReadsBackFromIt() {
        check(RecordType.values(), RecordType::code);
        check(Kind.values(), Kind::code);
        check(OutcomeWord.values(), OutcomeWord::code);
        check(Effect.values(), Effect::code);
        check(ProbeResult.values(), ProbeResult::code);
        for (RecordType t : RecordType.values()) {
            assertThat(Codes.type(Codes.of(t))).isEqualTo(t);
        }
        for (Kind k : Kind.values()) {
            assertThat(Codes.kind(Codes.of(k))).isEqualTo(k);
        }
        assertThat(Codes.kind(127)).as("a code this reader does not know reads as unknown").isNull();
    }

    @Test
    void aWordIsTheConstantsNameInLowerCaseAndReadsBackAsItsConstant() {
        assertThat(RecordType.APPROVAL_REQUESTED.word()).isEqualTo("approval_requested");
        assertThat(Kind.MONEY.word()).isEqualTo("money");
        assertThat(OutcomeWord.fromWord("retryable")).isSameAs(OutcomeWord.RETRYABLE);
        assertThat(Effect.fromWord("partial")).isSameAs(Effect.PARTIAL);
        assertThat(ProbeResult.fromWord("absent")).isSameAs(ProbeResult.ABSENT);
        assertThat(RecordType.ofWord("key_sent")).contains(RecordType.KEY_SENT);
        assertThat(Kind.fromWord("MONEY")).as("words on disk are lower case").isNull();
        assertThat(Effect.fromWord(null)).isNull();
        assertThat(Codes.effect(Effect.values().length + 1)).isNull();
        assertThat(Codes.effect(0)).isNull();
    }

    private static <T extends Enum<T>> void check(T[] constants, ToIntFunction<T> code) {
        assertThat(Arrays.stream(constants).mapToInt(code)).allMatch(c -> c >= 1 && c <= 127).doesNotHaveDuplicates();
    }

    private static <T extends Enum<T>> Map<String, Integer> codes(T[] constants, ToIntFunction<T> code) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (T c : constants) {
            out.put(c.name(), code.applyAsInt(c));
        }
        return out;
    }
}

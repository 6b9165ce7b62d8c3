package dev.effectful.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The key material is an injective encoding, and keeps today's key for every ordinary tuple. */
class IntentKeysInjectiveTest {

    @Test
    void theTwoTuplesThatOnceSharedAKeyNoLongerDo() {
        String first = IntentKeys.derive("a|b", null, "charge", "[\"o-1\"]", null);
        String second = IntentKeys.derive("a", "b|", "charge", "[\"o-1\"]", null);
        assertThat(first).isNotEqualTo(second);
        // the plain join made them one: "a|b||charge|..." twice
        assertThat(IntentKeys.legacy("a|b", null, "charge", "[\"o-1\"]", null))
                .isEqualTo(IntentKeys.legacy("a", "b|", "charge", "[\"o-1\"]", null));
        assertThat(IntentKeys.material("a|b", null, "charge", "[\"o-1\"]", null)).isEqualTo("a\\|b||charge|[\"o-1\"]|");
        assertThat(IntentKeys.material("a", "b|", "charge", "[\"o-1\"]", null)).isEqualTo("a|b\\||charge|[\"o-1\"]|");
    }

    @Test
    void anOrdinaryTupleKeepsThePlainJoinsKey() {
        // printf 'task|actor|verb|["x"]|' | sha256sum | cut -c1-32
        assertThat(IntentKeys.derive("task", "actor", "verb", "[\"x\"]", null)).isEqualTo("bc77ba364fcfe590a6e921858450e2b5");
        // a '|' inside the JSON target is delimited by its string: the key is the plain join's
        assertThat(IntentKeys.derive("t-1", "alice", "send", "[\"a|b\",\"c\\\\\\\"|\"]", "2"))
                .isEqualTo(IntentKeys.legacy("t-1", "alice", "send", "[\"a|b\",\"c\\\\\\\"|\"]", "2"));
        assertThat(IntentKeys.escapingChanges("t-1", "alice", "send", "[\"a|b\"]", "2")).isFalse();
        // the ordinal form of a tool without @IntentKey
        assertThat(IntentKeys.derive("t-1", null, "notify", "#3", null))
                .isEqualTo(IntentKeys.legacy("t-1", null, "notify", "#3", null));
        java.util.Random random = new java.util.Random(7);
        String plain = "abcXYZ019-_.:@/ é日\uD83D[]{}\",";
        for (int i = 0; i < 20_000; i++) {
            String task = word(random, plain);
            String actor = random.nextBoolean() ? null : word(random, plain);
            String verb = word(random, plain) + "v";
            String target = "[\"" + word(random, "abc|,[]{}:") + "\"]";
            String slot = random.nextBoolean() ? null : word(random, plain);
            assertThat(IntentKeys.escapingChanges(task, actor, verb, target, slot)).isFalse();
            assertThat(IntentKeys.derive(task, actor, verb, target, slot))
                    .isEqualTo(IntentKeys.legacy(task, actor, verb, target, slot));
        }
    }

    @Test
    void unpairedSurrogatesNoLongerMergeWithQuestionMarks() {
        assertThat(IntentKeys.legacy("\uD800", null, "v", "[]", null)).isEqualTo(IntentKeys.legacy("?", null, "v", "[]", null));
        assertThat(IntentKeys.derive("\uD800", null, "v", "[]", null)).isNotEqualTo(IntentKeys.derive("?", null, "v", "[]", null))
                .isNotEqualTo(IntentKeys.derive("\uD801", null, "v", "[]", null))
                .isNotEqualTo(IntentKeys.derive("\\ud800", null, "v", "[]", null));
        assertThat(IntentKeys.derive("t", null, "v", "[\"\uD800\"]", null))
                .isNotEqualTo(IntentKeys.derive("t", null, "v", "[\"?\"]", null));
    }

    @Test
    void aTargetThatDoesNotDelimitItselfIsEscaped() {
        assertThat(IntentKeys.delimitsItself("[\"a|b\"]")).isTrue();
        assertThat(IntentKeys.delimitsItself("#12")).isTrue();
        assertThat(IntentKeys.delimitsItself("[1]|[2]")).isFalse();
        assertThat(IntentKeys.delimitsItself("[\"open")).isFalse();
        assertThat(IntentKeys.delimitsItself("x")).isFalse();
        assertThat(IntentKeys.delimitsItself("")).isFalse();
        assertThat(IntentKeys.material("t", "", "v", "[1]|[2]", "s")).isEqualTo("t||v|\\[1]\\|[2]|s");
        assertThat(IntentKeys.derive("t", "", "v", "[1]|[2]", "s")).isNotEqualTo(IntentKeys.derive("t", "", "v", "[1]", "[2]|s"));
    }

    private static String word(java.util.Random random, String alphabet) {
        StringBuilder sb = new StringBuilder();
        for (int n = random.nextInt(8); n > 0; n--) {
            char c = alphabet.charAt(random.nextInt(alphabet.length()));
            sb.append(c);
            if (Character.isHighSurrogate(c)) {
                sb.append('\uDE00');
            }
        }
        return sb.toString();
    }
}

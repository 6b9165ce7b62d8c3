package dev.effectful.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IntentKeysTest {

    @Test
    void matchesAnIndependentlyComputedVector() {
        // printf 'task|actor|verb|["x"]|' | sha256sum | cut -c1-32
        assertThat(IntentKeys.derive("task", "actor", "verb", "[\"x\"]", null))
                .isEqualTo("bc77ba364fcfe590a6e921858450e2b5");
        // printf 't-1|alice|send_email|["ord-1",{"a":1,"b":2}]|2' | sha256sum | cut -c1-32
        assertThat(IntentKeys.derive("t-1", "alice", "send_email", "[\"ord-1\",{\"a\":1,\"b\":2}]", "2"))
                .isEqualTo("c5fce1e73633dc830f22149e516733e5");
    }

    @Test
    void nullActorAndSlotHashAsEmpty() {
        // printf 'task||verb|["x"]|' | sha256sum | cut -c1-32
        assertThat(IntentKeys.derive("task", null, "verb", "[\"x\"]", null))
                .isEqualTo("07151e9d99b1957682d195e9eddb641f")
                .isEqualTo(IntentKeys.derive("task", "", "verb", "[\"x\"]", ""));
    }

    @Test
    void isThirtyTwoLowerCaseHexDigits() {
        assertThat(IntentKeys.derive("T", "A", "V", "[]", "S")).matches("[0-9a-f]{32}");
    }

    @Test
    void theAsciiPathGivesTheTextPathsKeyForEveryInput() {
        java.util.Random random = new java.util.Random(21);
        String alphabet = "aZ09|[]\"\\,:{}- \u0000\u007f\u0080é€\uD83D\uDE00\uD800\uDFFF日";
        for (int i = 0; i < 50_000; i++) {
            String[] parts = new String[5];
            for (int p = 0; p < parts.length; p++) {
                StringBuilder sb = new StringBuilder();
                // mostly ASCII, as keys are; one part in eight holds anything at all
                boolean any = random.nextInt(8) == 0;
                for (int n = random.nextInt(p == 3 ? 300 : 30); n > 0; n--) {
                    sb.append(any ? alphabet.charAt(random.nextInt(alphabet.length())) : (char) random.nextInt(0x80));
                }
                parts[p] = sb.toString();
            }
            String actor = random.nextInt(5) == 0 ? null : parts[1];
            String slot = random.nextInt(3) == 0 ? null : parts[4];
            assertThat(IntentKeys.derive(parts[0], actor, parts[2], parts[3], slot))
                    .isEqualTo(IntentKeys.deriveFromText(parts[0], actor, parts[2], parts[3], slot));
        }
    }
}

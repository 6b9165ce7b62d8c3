package dev.effectful.runtime.keys;

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
}

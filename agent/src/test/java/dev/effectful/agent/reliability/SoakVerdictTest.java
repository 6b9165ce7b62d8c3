package dev.effectful.agent.reliability;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The soak's verdict on answers the JDK HttpClient lost: expected unknown and unresolved, never a phantom. */
class SoakVerdictTest {

    private static SoakVerdict.Check check(SoakVerdict v, String name) {
        return v.checks().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static SoakVerdict judge(Set<String> lostByJdk, Map<String, Boolean> unresolved) {
        return SoakVerdict.judge(new SoakVerdict.Observed(60, 5, 1000, List.of(), List.of(1L, 1L, 1L, 1L, 1L), 0,
                Map.of("calls", 10L), Set.of("held"), lostByJdk, unresolved, List.of(), List.of()));
    }

    @Test
    void anAnswerTheJdkLostIsKeptUnresolvedAndIsNoPhantom() {
        SoakVerdict v = judge(Set.of("lost"), Map.of("held", true, "lost", true));
        assertThat(check(v, "answers the JDK lost kept").passed()).isTrue();
        assertThat(check(v, "no phantom unresolved").passed()).isTrue();
    }

    @Test
    void anAnswerTheJdkLostThatIsNotListedUnresolvedFails() {
        assertThat(check(judge(Set.of("lost"), Map.of("held", true)), "answers the JDK lost kept").passed()).isFalse();
    }

    @Test
    void moreLostAnswersThanAJdkBugExplainsFail() {
        Set<String> lost = Set.of("a", "b", "c", "d");
        Map<String, Boolean> listed = Map.of("held", true, "a", true, "b", true, "c", true, "d", true);
        assertThat(check(judge(lost, listed), "answers the JDK lost kept").passed()).isFalse();
    }

    @Test
    void anUnresolvedIntentNeitherHeldNorLostIsAPhantom() {
        assertThat(check(judge(Set.of(), Map.of("held", true, "other", true)), "no phantom unresolved").passed()).isFalse();
    }
}

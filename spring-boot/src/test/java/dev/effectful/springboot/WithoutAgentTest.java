package dev.effectful.springboot;

import dev.effectful.AgentStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** In a JVM without the agent everything answers "not loaded" and nothing throws. */
class WithoutAgentTest {

    @Test
    void theHealthIsUnknownAndSaysTheAgentIsNotLoaded() {
        EffectfulHealth h = EffectfulHealth.check();
        assertThat(h.status()).isEqualTo("UNKNOWN");
        assertThat(h.details()).containsExactlyEntriesOf(Map.of("agent", "not loaded"));
        assertThat(new Boot3HealthIndicator().health().getStatus().getCode()).isEqualTo("UNKNOWN");
    }

    @Test
    void theEndpointListsNothing() {
        assertThat(new EffectfulEndpoint().lists())
                .containsExactly(Map.entry("agent", "not loaded"), Map.entry("unresolved", List.of()),
                        Map.entry("approvals", List.of()));
    }

    @Test
    void theStatusReadIsEmpty() {
        AgentStatus s = AgentStatus.read();
        assertThat(s.agentLoaded()).isFalse();
        assertThat(s.engineRunning()).isFalse();
        assertThat(s.journalProblem()).isEmpty();
        assertThat(s.unresolved()).isEmpty();
        assertThat(s.approvals()).isEmpty();
        assertThat(EffectfulHealth.of(s, Instant.now()).status()).isEqualTo("UNKNOWN");
    }
}

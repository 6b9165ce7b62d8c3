package dev.effectful.core.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EffectfulConfigTest {

    @Test
    void defaults() {
        EffectfulConfig c = EffectfulConfig.load(Map.of(), Map.of());
        assertThat(c.journalDir()).isEqualTo(Path.of("effectful-journal").toAbsolutePath());
        assertThat(c.sync()).isEqualTo(EffectfulConfig.Sync.NONE);
        assertThat(c.retention()).isEqualTo(Duration.ofDays(7));
        assertThat(c.failure()).isEqualTo(EffectfulConfig.Failure.EXCEPTION);
    }

    @Test
    void agentArgumentsBeatTheEnvironment() {
        EffectfulConfig c = EffectfulConfig.load(AgentArgument.parseAgentArgs("journal=/tmp/a,sync=intent,retention=12h"),
                Map.of("EFFECTFUL_JOURNAL_DIR", "/tmp/b", "EFFECTFUL_FAILURE", "json"));
        assertThat(c.journalDir()).isEqualTo(Path.of("/tmp/a"));
        assertThat(c.sync()).isEqualTo(EffectfulConfig.Sync.INTENT);
        assertThat(c.retention()).isEqualTo(Duration.ofHours(12));
        assertThat(c.failure()).isEqualTo(EffectfulConfig.Failure.JSON);
    }

    @Test
    void badValuesSayWhatIsAccepted() {
        assertThatThrownBy(() -> EffectfulConfig.load(Map.of("effectful.sync", "always"), Map.of()))
                .hasMessageContaining("effectful.sync=always").hasMessageContaining("intent");
        assertThatThrownBy(() -> ValueParsers.parseDuration("effectful.retention", "soon"))
                .hasMessageContaining("7d");
        assertThatThrownBy(() -> AgentArgument.parseAgentArgs("journal")).hasMessageContaining("key=value");
    }
}

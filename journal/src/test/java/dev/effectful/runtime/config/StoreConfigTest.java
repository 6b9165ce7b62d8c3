package dev.effectful.runtime.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fleet-mode keys: where the password may come from, and that it never shows. */
class StoreConfigTest {

    @TempDir
    Path tmp;

    @Test
    void localByDefault() {
        EffectfulConfig c = EffectfulConfig.load(Map.of(), Map.of());
        assertThat(c.store().kind()).isEqualTo(EffectfulConfig.StoreKind.LOCAL);
        assertThat(c.store().lease()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void postgresWithThePasswordFromTheEnvironmentNeverShown() {
        EffectfulConfig c = EffectfulConfig.load(EffectfulConfig.parseAgentArgs(
                        "store=postgres,store.url=jdbc:postgresql://db:5432/agents?sslmode=require&password=inurl,"
                                + "store.user=agent,store.lease=500ms,store.timeout=3s"),
                Map.of("EFFECTFUL_STORE_PASSWORD", "s3cret"));
        EffectfulConfig.Store s = c.store();
        assertThat(s.kind()).isEqualTo(EffectfulConfig.StoreKind.POSTGRES);
        assertThat(s.password()).isEqualTo("s3cret");
        assertThat(s.lease()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.safeUrl()).isEqualTo("jdbc:postgresql://db:5432/agents");
        assertThat(c.toString()).doesNotContain("s3cret").doesNotContain("inurl");
    }

    @Test
    void passwordFromAFileWhenNotGivenDirectly() throws Exception {
        Path f = Files.writeString(tmp.resolve("pw"), "from-file\n");
        EffectfulConfig c = EffectfulConfig.load(Map.of(EffectfulConfig.STORE, "postgres",
                EffectfulConfig.STORE_URL, "jdbc:postgresql://db/agents", EffectfulConfig.STORE_PASSWORD_FILE, f.toString()), Map.of());
        assertThat(c.store().password()).isEqualTo("from-file");
    }

    @Test
    void postgresWithoutAUrlIsAClearError() {
        assertThatThrownBy(() -> EffectfulConfig.load(Map.of(EffectfulConfig.STORE, "postgres"), Map.of()))
                .hasMessageContaining(EffectfulConfig.STORE_URL);
        assertThatThrownBy(() -> EffectfulConfig.load(Map.of(EffectfulConfig.STORE, "mysql"), Map.of()))
                .hasMessageContaining("local, postgres");
    }
}

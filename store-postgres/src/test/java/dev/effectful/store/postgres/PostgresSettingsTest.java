package dev.effectful.store.postgres;

import dev.effectful.core.config.EffectfulConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgreSQL store's keys, read through the configuration as the agent reads them: where the
 * password may come from, that it never shows, and that a wrong setting fails closed naming the key.
 */
class PostgresSettingsTest {

    @TempDir
    Path tmp;

    private static EffectfulConfig.Loaded read(String agentArgs, Map<String, String> env) {
        return EffectfulConfig.read(agentArgs, new Properties(), env);
    }

    @Test
    void localByDefault() {
        EffectfulConfig c = read("", Map.of()).config();
        assertThat(c.store().isLocal()).isTrue();
        assertThat(c.store().kind()).isEqualTo("local");
    }

    @Test
    void postgresWithThePasswordFromTheEnvironmentNeverShown() {
        EffectfulConfig.Loaded loaded = read("store=postgres,store.url=jdbc:postgresql://db:5432/agents?sslmode=require"
                + "&password=inurl,store.user=agent,store.lease=500ms,store.timeout=3s",
                Map.of("EFFECTFUL_STORE_PASSWORD", "s3cret"));
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.warnings()).as("the store's keys are known keys").isEmpty();
        EffectfulConfig c = loaded.config();
        assertThat(c.store().kind()).isEqualTo("postgres");
        PostgresSettings s = (PostgresSettings) c.store().settings();
        assertThat(s.password()).isEqualTo("s3cret");
        assertThat(s.user()).isEqualTo("agent");
        assertThat(s.lease()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.safeUrl()).isEqualTo("jdbc:postgresql://db:5432/agents");
        assertThat(c.toString()).doesNotContain("s3cret").doesNotContain("inurl");
        assertThat(s.toString()).doesNotContain("s3cret").doesNotContain("inurl");
    }

    @Test
    void defaultsWhenOnlyTheUrlIsGiven() {
        PostgresSettings s = (PostgresSettings) read("store=postgres,store.url=jdbc:postgresql://db/agents", Map.of())
                .config().store().settings();
        assertThat(s.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.user()).isNull();
        assertThat(s.password()).isNull();
    }

    @Test
    void passwordFromAFileWhenNotGivenDirectly() throws Exception {
        Path f = Files.writeString(tmp.resolve("pw"), "from-file\n");
        EffectfulConfig c = read("", Map.of("EFFECTFUL_STORE", "postgres", "EFFECTFUL_STORE_URL", "jdbc:postgresql://db/agents",
                "EFFECTFUL_STORE_PASSWORD_FILE", f.toString())).config();
        assertThat(((PostgresSettings) c.store().settings()).password()).isEqualTo("from-file");
    }

    @Test
    void wrongSettingsFailClosedNamingTheKey() {
        assertThat(read("store=postgres", Map.of()).errors()).singleElement()
                .satisfies(p -> assertThat(p.message()).contains(PostgresSettings.URL, "jdbc:postgresql://HOST:PORT/DB"));
        assertThat(read("store=postgres,store.url=jdbc:mysql://db/x", Map.of()).errors()).singleElement()
                .satisfies(p -> assertThat(p.message()).contains(PostgresSettings.URL + " must start with jdbc:postgresql:"));
        assertThat(read("store=postgres,store.url=jdbc:postgresql://db/x,store.lease=soon", Map.of()).errors())
                .singleElement().satisfies(p -> assertThat(p.message()).contains(PostgresSettings.LEASE, "45s", "500ms"));
        assertThat(read("store=postgres,store.url=jdbc:postgresql://db/x,store.timeout=2x", Map.of()).errors())
                .singleElement().satisfies(p -> assertThat(p.message()).contains(PostgresSettings.TIMEOUT, "45s"));
        assertThat(read("store=postgres,store.url=jdbc:postgresql://db/x,store.password.file=" + tmp.resolve("none"),
                Map.of()).errors()).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("cannot read " + PostgresSettings.PASSWORD_FILE));
        assertThat(read("store=postgres,store.url=jdbc:postgresql://db/x", Map.of("EFFECTFUL_STORE_USER", " ")).errors())
                .as("a key set but empty is a mistake, not the default").singleElement()
                .satisfies(p -> assertThat(p.message()).contains(PostgresSettings.USER, "set but empty"));
    }

    @Test
    void anUnknownKindNamesTheStoresOfThisBuild() {
        assertThat(read("store=postgre", Map.of()).errors()).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("local, postgres", "did you mean postgres"));
    }

    @Test
    void aMisspelledStoreKeyIsRefusedWithTheNearestOne() {
        assertThat(read("store=postgres,store.urll=jdbc:postgresql://db/x", Map.of()).errors())
                .anySatisfy(p -> assertThat(p.message()).contains("store.urll", "store.url"));
    }
}

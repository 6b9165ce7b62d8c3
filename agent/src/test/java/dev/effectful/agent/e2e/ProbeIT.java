package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.ProbeApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Probe forms under the real agent, the {@code @EffectfulTool} Javadoc's own
 * {@code Optional<String>} example first. Each first call loses its answer (unknown); the repeat
 * asks the probe: found answers without running the body again, absent runs it.
 */
class ProbeIT {

    @TempDir
    Path tmp;

    @Test
    void everyDocumentedProbeFormWorksUnderTheAgent() throws Exception {
        ForkedApp app = ForkedApp.jdk(Jdk.current()).main(ProbeApp.class)
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .env("HOME", tmp.resolve("home").toString())
                .run(tmp.resolve("logs"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();
        assertThat(r.get("email_found_first")).startsWith("THROWN {\"outcome\":\"unknown\"");

        assertThat(r).containsEntry("email_found", "sent earlier").containsEntry("email_found_bodies", "1");
        assertThat(r).containsEntry("email_absent", "sent:ord-1").containsEntry("email_absent_bodies", "2");
        assertThat(r).containsEntry("charge_found", "7").containsEntry("charge_found_bodies", "1");
        assertThat(r).containsEntry("charge_absent", "100").containsEntry("charge_absent_bodies", "2");
        assertThat(r.get("page_found")).startsWith("{\"outcome\":\"ok\",\"effect_applied\":\"yes\"")
                .contains("the original result was not stored");
        assertThat(r).containsEntry("page_found_bodies", "1");
        assertThat(r).containsEntry("page_absent", "paged:ann").containsEntry("page_absent_bodies", "2");
        assertThat(app.stderr()).as("no probe was refused").doesNotContain("probe ");
    }
}

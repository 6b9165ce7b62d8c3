package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.BusyStartApp;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's start ahead of need waits for the application's start to quiet: a fresh journal is not
 * opened while the application keeps a core busy after its tool class loaded, is opened once it rests
 * with no call at all, and the call after that is guarded as ever.
 */
class BusyStartIT extends ForkedJvmTest {

    @Test
    void aFreshJournalOpensOnlyOnceTheApplicationsStartHasQuieted() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp app = forked(Jdk.current(), journal).main(BusyStartApp.class).sysprop("ledger", ledger.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(90));
            Map<String, String> r = app.results();
            assertThat(r).as("stderr: %s", app.stderr()).containsEntry("opened_while_busy", "false")
                    .containsEntry("opened_when_quiet", "true").containsEntry("spun", "true");
            assertThat(r.get("call")).startsWith("done:first_send:");
            assertThat(JournalContents.of(journal).forCall("first_send")).isNotEmpty();
        }
    }
}

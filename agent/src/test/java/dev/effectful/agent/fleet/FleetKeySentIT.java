package dev.effectful.agent.fleet;

import dev.effectful.agent.e2e.DedupLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.apps.KeySentApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fleet mode and {@code key_sent}: the record stays in the journal of the host that saw the key leave, so
 * after a kill -9 another host holds the MONEY intent (it cannot know the service saw the key), while the
 * host itself, restarted on its own journal, re-sends the same key and the service charges once.
 */
class FleetKeySentIT {

    @RegisterExtension
    static final SharedPostgres pg = new SharedPostgres();

    @TempDir
    Path tmp;

    private ForkedApp host(String name, DedupLedger service, String scenario) {
        return ForkedApp.jdk(Jdk.current()).main(KeySentApp.class, scenario, "jdk")
                .sysprop("effectful.journal.dir", tmp.resolve("journal-" + name))
                .sysprop("effectful.store", "postgres")
                .sysprop("effectful.store.url", pg.server().urlVia("127.0.0.1"))
                .sysprop("effectful.store.user", PostgresServer.USER)
                .sysprop("effectful.store.lease", "2s")
                .sysprop("effectful.store.timeout", "5s")
                .env("EFFECTFUL_STORE_PASSWORD", PostgresServer.PASSWORD)
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("ledger", service.url()).sysprop("order", "o-fleet");
    }

    @Test
    void onlyTheHostThatSawTheKeyLeaveReSendsIt() throws Exception {
        try (DedupLedger service = new DedupLedger()) {
            ForkedApp a = host("a", service, "hang").start(tmp.resolve("logs-a1"));
            await().atMost(Duration.ofSeconds(90)).until(() -> service.charges("o-fleet") == 1);
            a.kill9();
            assertThat(JournalContents.of(tmp.resolve("journal-a")).of(RecordType.KEY_SENT)).hasSize(1);

            ForkedApp b = host("b", service, "resume").run(tmp.resolve("logs-b"), Duration.ofSeconds(90));
            assertThat(b.results().get("resume")).as(b.stderr()).contains("\"outcome\":\"unknown\"")
                    .contains("held until a person");
            assertThat(service.keys("o-fleet")).as("B sent nothing").hasSize(1);

            ForkedApp again = host("a", service, "resume").run(tmp.resolve("logs-a2"), Duration.ofSeconds(90));
            assertThat(again.results().get("resume")).as(again.stderr()).startsWith("ok charged:o-fleet#1");
            List<String> keys = service.keys("o-fleet");
            assertThat(keys).hasSize(2);
            assertThat(keys.get(1)).as("the same key, deduplicated").isEqualTo(keys.get(0));
            assertThat(service.charges("o-fleet")).isEqualTo(1);
        }
    }
}

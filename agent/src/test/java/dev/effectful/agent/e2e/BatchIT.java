package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.BatchApp;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9: per-item outcomes, and a retry scoped to the items that did not land. */
class BatchIT {

    @TempDir
    Path tmp;

    @Test
    void fortyRowsOneInvalidOneTimedOutThenAScopedRetry() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp app = ForkedApp.jdk(Jdk.current()).main(BatchApp.class, "twice")
                    .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url())
                    .sysprop("rows", 40).sysprop("invalidAt", 13).sysprop("hangAt", 14).sysprop("hangRows", true)
                    .run(tmp.resolve("logs"), Duration.ofSeconds(90));
            Map<String, String> r = app.results();

            assertThat(r.get("first")).contains("\"outcome\":\"permanent\"", "\"effect_applied\":\"partial\"",
                    "\"message\":\"38 of 40 rows written; 1 blocked, 1 unresolved\"",
                    "{\"id\":\"row_13\",\"applied\":\"no\",\"reason\":\"merged cell\"}",
                    "{\"id\":\"row_14\",\"applied\":\"unknown\"");
            // the retry: 38 not sent again, row_14 probed and found, row_13 reported and not retried
            assertThat(r.get("retry")).contains("\"outcome\":\"permanent\"", "\"effect_applied\":\"partial\"",
                    "\"message\":\"39 of 40 rows written; 1 blocked\"", "{\"id\":\"row_14\",\"applied\":\"yes\"}",
                    "{\"id\":\"row_13\",\"applied\":\"no\"");
            assertThat(r.get("body_runs")).as("the retry had nothing left to send").isEqualTo("1");
            for (int i = 1; i <= 40; i++) {
                assertThat(ledger.effects("row", "sheet-1:row_" + i)).as("row_" + i).isEqualTo(i == 13 ? 0 : 1);
            }
            JournalContents j = JournalContents.of(journal);
            assertThat(j.where(x -> x.type() == RecordType.PROBE && "row_14".equals(x.item())))
                    .extracting(JournalRecord::probe).containsExactly("found");
            assertThat(j.where(x -> x.type() == RecordType.INTENT)).as("one intent per row sent, none for the retry").hasSize(40)
                    .allMatch(x -> x.item() != null && x.intentKey().matches("[0-9a-f]{32}"));
        }
    }

    @Test
    void aBatchKilledHalfWayAppliesEachItemExactlyOnceAfterResuming() throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp first = ForkedApp.jdk(Jdk.current()).main(BatchApp.class, "once")
                    .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url())
                    .sysprop("rows", 20).sysprop("hangAt", 11).sysprop("hangRows", true).sysprop("hangMillis", 60_000)
                    .start(tmp.resolve("logs"));
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ledger.effects("row", "sheet-1:row_11") == 0 && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertThat(ledger.effects("row", "sheet-1:row_11")).as("row 11 applied before the kill").isEqualTo(1);
            first.kill9();

            ForkedApp second = ForkedApp.jdk(Jdk.current()).main(BatchApp.class, "once")
                    .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url()).sysprop("rows", 20)
                    .run(tmp.resolve("logs"), Duration.ofSeconds(60));
            assertThat(second.results().get("only")).contains("\"outcome\":\"ok\"", "\"effect_applied\":\"yes\"",
                    "20 of 20 rows written");
            assertThat(second.results().get("batch_sizes")).as("only the rows that had not landed were sent").isEqualTo("[9]");
            for (int i = 1; i <= 20; i++) {
                assertThat(ledger.effects("row", "sheet-1:row_" + i)).as("row_" + i).isEqualTo(1);
            }
        }
    }

    @Test
    void aPaginatedReadThatFailsHalfWayReturnsWhatItHasMarkedPartial() throws Exception {
        ForkedApp app = ForkedApp.jdk(Jdk.current()).main(BatchApp.class, "pages")
                .sysprop("effectful.journal.dir", tmp.resolve("journal")).run(tmp.resolve("logs"), Duration.ofSeconds(60));
        assertThat(app.results().get("pages")).contains("\"outcome\":\"retryable\"", "\"effect_applied\":\"partial\"",
                "page 3 of 4 failed");
        assertThat(app.results().get("pages_value")).isEqualTo("[order-1a, order-1b, order-2a, order-2b]");
    }
}

package dev.effectful.agent.e2e;

import dev.effectful.core.journal.ProbeResult;
import dev.effectful.agent.e2e.apps.BatchApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-item outcomes, and a retry scoped to the items that did not land. A body
 * that throws part-way never has its written rows called "not applied" nor its untried rows refused.
 */
class BatchIT extends ForkedJvmTest {

    /** {@link BatchApp} in {@code mode}, its journal the test's, its effects in {@code ledger}. */
    private ForkedApp batchApp(EffectLedger ledger, String mode) {
        return ForkedApp.jdk(Jdk.current()).main(BatchApp.class, mode)
                .sysprop("effectful.journal.dir", journal()).sysprop("ledger", ledger.url());
    }

    @Test
    void fortyRowsOneInvalidOneTimedOutThenAScopedRetry() throws Exception {
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp app = batchApp(ledger, "twice")
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
            JournalContents j = JournalContents.of(journal());
            assertThat(j.where(x -> x.type() == RecordType.PROBE && "row_14".equals(x.item())))
                    .extracting(JournalRecord::probe).containsExactly(ProbeResult.FOUND);
            assertThat(j.where(x -> x.type() == RecordType.INTENT)).as("one intent per row sent, none for the retry").hasSize(40)
                    .allMatch(x -> x.item() != null && x.intentKey().matches("[0-9a-f]{32}"));
        }
    }

    @Test
    void aBatchKilledHalfWayAppliesEachItemExactlyOnceAfterResuming() throws Exception {
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp first = batchApp(ledger, "once")
                    .sysprop("rows", 20).sysprop("hangAt", 11).sysprop("hangRows", true).sysprop("hangMillis", 60_000)
                    .start(tmp.resolve("logs"));
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ledger.effects("row", "sheet-1:row_11") == 0 && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertThat(ledger.effects("row", "sheet-1:row_11")).as("row 11 applied before the kill").isEqualTo(1);
            first.kill9();

            ForkedApp second = batchApp(ledger, "once")
                    .sysprop("rows", 20)
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

    // ------------------------------------------------------------------ a body that throws part-way

    private static final String[] COPIED = {"row_12", "row_13", "row_14"};

    /**
     * row_12 lands, then the body throws on row_13 (a validation error, or a real connection refused),
     * so row_14 is never tried. With a probe: nothing is "not applied" or refused, and the rephrased
     * retry probes what the body did not name and sends only what is absent: every row exactly once.
     */
    @ParameterizedTest(name = "{0}, rows named as they go: {1}")
    @CsvSource({"iae, true", "connect, true", "iae, false", "connect, false"})
    void aBodyThatThrowsPartWayWithAProbeLeavesEveryRowWrittenOnce(String failWith, boolean named) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = throwingApp(ledger, failWith, named, true);

            String first = r.get("first");
            assertThat(first).as("the exception's class says nothing about rows sent before it")
                    .contains("\"outcome\":\"unknown\"", "{\"id\":\"row_13\",\"applied\":\"unknown\"",
                            "{\"id\":\"row_14\",\"applied\":\"unknown\"")
                    .doesNotContain("\"applied\":\"no\"", "refused earlier", "not sent again");
            if (named) {
                assertThat(first).contains("\"effect_applied\":\"partial\"", "{\"id\":\"row_12\",\"applied\":\"yes\"}",
                        "\"message\":\"1 of 3 rows written; 2 unresolved (");
            } else {
                assertThat(first).contains("\"effect_applied\":\"unknown\"", "{\"id\":\"row_12\",\"applied\":\"unknown\"",
                        "\"message\":\"0 of 3 rows written; 3 unresolved (");
            }
            assertThat(r.get("retry")).contains("\"outcome\":\"ok\"", "\"effect_applied\":\"yes\"", "3 of 3 rows written");
            assertThat(r.get("batch_sizes")).as("the retry sent only the rows the probe did not find").isEqualTo("[3, 2]");
            for (String row : COPIED) {
                assertThat(ledger.effects("row", "sheet-2:" + row)).as(row).isEqualTo(1);
            }
            JournalContents j = JournalContents.of(journal);
            assertThat(j.where(x -> x.type() == RecordType.PROBE)).extracting(x -> x.item() + "=" + x.probe().word())
                    .containsExactlyInAnyOrderElementsOf(named ? java.util.List.of("row_13=absent", "row_14=absent")
                            : java.util.List.of("row_12=found", "row_13=absent", "row_14=absent"));
        }
    }

    /**
     * The same body with no probe: its kind (CREATE, not keyable) holds the unnamed rows after the
     * throw, as the re-entry table says for an unknown intent without a probe. The retry sends
     * nothing (row_12 landed, the others are held, not refused); once a person resolves the held rows
     * as not applied, the next call writes them: every row exactly once.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"iae", "connect"})
    void aBodyThatThrowsPartWayWithoutAProbeHoldsTheRowsItDidNotName(String failWith) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = throwingApp(ledger, failWith, true, false);

            assertThat(r.get("first")).contains("\"outcome\":\"unknown\"", "\"effect_applied\":\"partial\"",
                    "{\"id\":\"row_12\",\"applied\":\"yes\"}", "{\"id\":\"row_13\",\"applied\":\"unknown\"",
                    "{\"id\":\"row_14\",\"applied\":\"unknown\"").doesNotContain("\"applied\":\"no\"", "refused earlier", "not sent again");
            assertThat(r.get("retry")).contains("\"outcome\":\"unknown\"", "\"effect_applied\":\"partial\"",
                    "{\"id\":\"row_12\",\"applied\":\"yes\"}", "held until a person resolves it")
                    .doesNotContain("\"applied\":\"no\"", "refused earlier");
            assertThat(r.get("body_runs")).as("the retry had nothing it may send").isEqualTo("1");
            assertThat(ledger.effects("row", "sheet-2:row_12")).isEqualTo(1);
            assertThat(ledger.effects("row", "sheet-2:row_13")).isZero();
            assertThat(ledger.effects("row", "sheet-2:row_14")).isZero();

            // a person looks at the sheet: row_13 and row_14 are not there
            JournalContents j = JournalContents.of(journal);
            for (String row : new String[] {"row_13", "row_14"}) {
                String key = j.where(x -> x.type() == RecordType.INTENT && row.equals(x.item())).get(0).intentKey();
                CliRun resolve = CliRun.journal(journal, "resolve", key, "--applied", "no", "--note", "not in the sheet");
                assertThat(resolve.exitCode()).as(resolve.toString()).isZero();
            }

            ForkedApp again = batchApp(ledger, "copy")
                    .sysprop("probed", false)
                    .run(tmp.resolve("logs2"), Duration.ofSeconds(90));
            assertThat(again.results().get("only")).contains("\"outcome\":\"ok\"", "3 of 3 rows written");
            assertThat(again.results().get("batch_sizes")).as("only the resolved rows were sent").isEqualTo("[2]");
            for (String row : COPIED) {
                assertThat(ledger.effects("row", "sheet-2:" + row)).as(row).isEqualTo(1);
            }
        }
    }

    private Map<String, String> throwingApp(EffectLedger ledger, String failWith, boolean named, boolean probed)
            throws Exception {
        return batchApp(ledger, "throwing")
                .sysprop("failOn", "row_13").sysprop("failWith", failWith).sysprop("nameRows", named).sysprop("probed", probed)
                .run(tmp.resolve("logs"), Duration.ofSeconds(90)).results();
    }
}

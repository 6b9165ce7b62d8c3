package dev.effectful.junit;

import dev.effectful.junit.samples.BrokenMailTools;
import dev.effectful.junit.samples.MailTools;
import dev.effectful.junit.samples.PriceTools;
import dev.effectful.junit.samples.RowTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit run on sample tools that speak HTTP through the JDK client to the kit's loopback service:
 * correct tools pass every check that applies to their kind; each broken tool fails the check that
 * catches its mistake, with a message naming the tool and what to change.
 */
class SixFailuresTest {

    @RegisterExtension
    final EffectfulKit kit = new EffectfulKit();

    private Report mail(Class<?> type) {
        return MailScenario.mail(kit, type);
    }

    /** What a batch tool writes: three rows, the second of which the sheet refuses. */
    interface RowsCall<T> {
        Object write(T tool, List<RowTools.Row> rows) throws Exception;
    }

    private <T> Report rows(Class<T> type, Function<URI, T> make, RowsCall<T> write) {
        Receivers.Sheet sheet = new Receivers.Sheet();
        FakeHttpService svc = kit.httpService(sheet);
        List<RowTools.Row> rows = List.of(new RowTools.Row("r1", "a"), new RowTools.Row("bad-2", "b"),
                new RowTools.Row("r3", "c"));
        return kit.tool(type, () -> make.apply(svc.uri()))
                .batch(t -> write.write(t, rows), "bad-2")
                .effects(sheet::count)
                .faultsAt(svc)
                .run();
    }

    @Test
    void aCorrectSendToolPassesAllSixThatApplyInUnderTenSeconds() {
        Report report = mail(MailTools.class);

        report.assertPassed();
        assertThat(report.verdicts()).extracting(Verdict::check).contains(Check.KILL_MID_CALL,
                Check.DUPLICATE_DELIVERY, Check.ERROR_IN_SUCCESS, Check.SLOW_SUCCESS, Check.RATE_LIMIT);
        assertThat(report.verdict(Check.KILL_MID_CALL).orElseThrow().happened()).contains("probe found");
        assertThat(report.millis()).isLessThan(10_000);
    }

    @Test
    void aSendWithoutAProbeFailsTheKillCheckNamingTheProbeToAdd() {
        Report report = mail(BrokenMailTools.NoProbe.class);

        Verdict kill = MailScenario.failed(report, Check.KILL_MID_CALL);
        assertThat(kill.tool()).isEqualTo("NoProbe.sendEmail");
        assertThat(kill.happened()).contains("held for a person").contains("1 effect(s) in all");
        assertThat(kill.change()).contains("add probe = \"findSendEmail\"");
        assertThat(report.failures()).extracting(Verdict::check).contains(Check.AUDIT);
    }

    @Test
    void aProbeThatNeverFindsFailsTheKillCheckWithTwoEffects() {
        Report report = mail(BrokenMailTools.BlindProbe.class);

        Verdict kill = MailScenario.failed(report, Check.KILL_MID_CALL);
        assertThat(kill.happened()).contains("probe absent").contains("2 effect(s) in all");
        assertThat(kill.change()).contains("probe findEmail answered absent");
        assertThat(report.failures()).anySatisfy(v -> assertThat(v.happened())
                .contains("probe findEmail answered absent right after the tool's effect landed"));
    }

    @Test
    void aKeyBuiltFromTheMessageTextFailsDuplicateDelivery() {
        Report report = mail(BrokenMailTools.TextKeyed.class);

        Verdict dup = MailScenario.failed(report, Check.DUPLICATE_DELIVERY);
        assertThat(dup.tool()).isEqualTo("TextKeyed.sendEmail");
        assertThat(dup.happened()).contains("2 effect(s)");
        assertThat(dup.change()).contains("built from [text]");
        assertThat(report.failures()).anySatisfy(v -> assertThat(v.happened()).contains("@IntentKey is on 'text'"));
    }

    @Test
    void aToolWithoutACheckFailsTheErrorIn200Check() {
        Verdict err = MailScenario.failsOnly(kit, BrokenMailTools.Unchecked.class, Check.ERROR_IN_SUCCESS);
        assertThat(err.happened()).contains("ok, returned").contains("mailbox full");
        assertThat(err.change()).contains("add check = \"checkSendEmail\"");
    }

    @Test
    void aToolThatIgnoresRetryAfterFailsTheRateLimitCheck() {
        Verdict rate = MailScenario.failsOnly(kit, BrokenMailTools.IgnoresRetryAfter.class, Check.RATE_LIMIT);
        assertThat(rate.happened()).contains("after 2 request(s)");
        assertThat(rate.change()).contains("called the receiver again right after the 429");
    }

    @Test
    void aCorrectBatchReportsPerItemAndRetriesOnlyTheRest() {
        Report report = rows(RowTools.PerItem.class, RowTools.PerItem::new, (t, rows) -> t.writeRows("sheet-1", rows));

        report.assertPassed();
        assertThat(report.verdict(Check.PARTIAL_BATCH).orElseThrow().happened())
                .contains("the retry sent 0 item(s); 2 effect(s)");
    }

    @Test
    void aBatchWithOneOutcomeForAllItemsFailsThePartialBatchCheck() {
        Report report = rows(RowTools.OneOutcome.class, RowTools.OneOutcome::new,
                (t, rows) -> t.writeRows("sheet-1", rows));

        Verdict batch = MailScenario.failed(report, Check.PARTIAL_BATCH);
        assertThat(batch.tool()).isEqualTo("OneOutcome.writeRows");
        assertThat(batch.change()).contains("reported one outcome for all its items");
    }

    @Test
    void aReadToolIsCheckedForErrorsInA200AndForChangingNothing() {
        FakeHttpService svc = kit.httpService(req -> FakeHttpService.Response.ok("{\"price\":12.5}"))
                .errorAnswer("{\"error\":\"no such sku\"}");
        Report report = kit.tool(PriceTools.class, () -> new PriceTools(svc.uri()))
                .call(t -> t.price("sku-1"))
                .effects(() -> 0)
                .faultsAt(svc)
                .run();

        report.assertPassed();
        assertThat(report.verdict(Check.ERROR_IN_SUCCESS).orElseThrow().result()).isEqualTo(Verdict.Result.PASS);
        assertThat(report.verdict(Check.DUPLICATE_DELIVERY).orElseThrow().result()).isEqualTo(Verdict.Result.PASS);
        assertThat(report.verdict(Check.DUPLICATE_DELIVERY).orElseThrow().happened())
                .contains("0 effect(s) at the receiver, 0 effect request(s)");
        assertThat(report.verdict(Check.KILL_MID_CALL).orElseThrow().result()).isEqualTo(Verdict.Result.SKIPPED);
    }

    @Test
    void aFailingRunPrintsNothingAndFailsTheTestWithEveryVerdictSpelledOut() {
        java.io.PrintStream out = System.out;
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        Report report;
        try {
            System.setOut(new java.io.PrintStream(printed, true));
            System.setErr(new java.io.PrintStream(printed, true));
            report = mail(BrokenMailTools.NoProbe.class);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }

        assertThat(printed.toString()).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(report::assertPassed)
                .hasMessageContaining("NoProbe.sendEmail does not survive")
                .hasMessageContaining("[1 kill mid-call] NoProbe.sendEmail")
                .hasMessageContaining("-> add probe = ");
    }
}

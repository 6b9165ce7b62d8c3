package dev.effectful.junit;

import dev.effectful.junit.samples.BrokenMailTools;
import dev.effectful.junit.samples.OrderTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bug classes the six failures expose beyond the obvious ones, each in a realistic tool: a READ that
 * changes the receiver, an outcome that denies an effect the receiver applied, a body that outlives its
 * deadline; and the correct shape the kit must not fail: a CREATE protected only by its key header.
 */
class BugClassesTest {

    @RegisterExtension
    final EffectfulKit kit = new EffectfulKit();

    @Test
    void aReadToolThatSendsFailsNamingTheKindToDeclare() {
        Receivers.Mailbox box = new Receivers.Mailbox();
        FakeHttpService svc = kit.httpService(box).errorAnswer("{\"error\":\"no such order\"}");
        Report report = kit.tool(BrokenMailTools.ReadThatSends.class, () -> new BrokenMailTools.ReadThatSends(svc.uri()))
                .call(t -> t.orderStatus("order-7741"))
                .effects(box::count)
                .faultsAt(svc)
                .run();

        Verdict read = MailScenario.failed(report, Check.DUPLICATE_DELIVERY);
        assertThat(read.tool()).isEqualTo("ReadThatSends.orderStatus");
        assertThat(read.happened()).contains("2 effect(s) at the receiver").contains("POST /emails");
        assertThat(read.change()).contains("declare it SEND/CREATE/..., or make it read only");
        MailScenario.failedOnly(report, Check.DUPLICATE_DELIVERY);
    }

    @Test
    void anOutcomeThatDeniesALandedEffectFailsNamingTheOverride() {
        Verdict kill = MailScenario.failsOnly(kit, BrokenMailTools.DeniesLostAnswer.class, Check.KILL_MID_CALL);
        assertThat(kill.happened()).contains("the effect landed (1) and the connection dropped, the process alive")
                .contains("retryable/effect no");
        assertThat(kill.change()).contains("retryableOn UncheckedIOException")
                .contains("don't declare this exception retryableOn/permanentOn, or let it through as unknown");
    }

    @Test
    void aBodyThatOutlivesItsDeadlineFailsNamingTheInterrupt() {
        Verdict slow = MailScenario.failsOnly(kit, BrokenMailTools.SwallowsInterrupt.class, Check.SLOW_SUCCESS);
        assertThat(slow.happened()).containsPattern("a body ended \\d+ ms after its deadline");
        assertThat(slow.change()).contains("let InterruptedException end the body, or check Thread.interrupted()");
    }

    @Test
    void aCreateProtectedOnlyByItsKeyHeaderPassesJudgedByTheKeysTheServiceSaw() {
        Receivers.Orders orders = new Receivers.Orders(true);
        FakeHttpService shop = kit.httpService(orders).errorAnswer("{\"error\":\"card_declined\"}");
        Report report = createOrders(orders, shop);

        report.assertPassed();
        Verdict kill = report.verdict(Check.KILL_MID_CALL).orElseThrow();
        assertThat(kill.happened()).contains("1 effect(s) in all")
                .containsPattern("2 effect request\\(s\\) carried Idempotency-Key \\S+ each time");
        // what the service saw: every create carried a key, and the crashed attempt and its re-run the same one
        assertThat(orders.keysSeen).doesNotContain("null");
        assertThat(report.millis()).isLessThan(5_000);
        System.out.println("key-header CREATE, all checks: " + report.millis() + " ms");
    }

    @Test
    void aKeyHeaderCreateAgainstAServiceThatIgnoresTheKeyFailsSayingSo() {
        Receivers.Orders orders = new Receivers.Orders(false);
        FakeHttpService shop = kit.httpService(orders);
        Report report = createOrders(orders, shop);

        Verdict kill = MailScenario.failed(report, Check.KILL_MID_CALL);
        assertThat(kill.happened()).contains("2 effect(s) in all");
        assertThat(kill.change()).contains("does not deduplicate on Idempotency-Key");
        assertThat(List.copyOf(orders.keysSeen)).doesNotContain("null");
    }

    /** Every check of the kit on {@link OrderTools} against {@code shop}: an order for cust-42, then in other words. */
    private Report createOrders(Receivers.Orders orders, FakeHttpService shop) {
        return kit.tool(OrderTools.class, () -> new OrderTools(shop.uri()))
                .call(t -> t.createOrder("cust-42", "2 books, gift wrapped"))
                .rephrased(t -> t.createOrder("cust-42", "two books (gift wrap please)"))
                .effects(orders::count)
                .faultsAt(shop)
                .run();
    }
}

package dev.effectful.it.googleadk.app;

import com.google.adk.tools.Annotations.Schema;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.agent.e2e.apps.FirstAnswerLost;

import java.io.IOException;
import java.time.Duration;

/**
 * The agent's tool, written as an ADK application writes it (a method given to
 * {@code FunctionTool.create}) with the Effectful annotations and no Task code. {@code charge_card}
 * loses its answer the first time it runs in a task: the loopback service applies the charge and never
 * answers, so the call ends in a read timeout after the effect.
 */
public class ShopTools {

    /** The body; its {@code bodies()} has one entry per body of charge_card that ran: {@code task/actor@thread}. */
    final FirstAnswerLost charges;

    /** @param lose how long the lost first answer is waited for before the read times out */
    public ShopTools(Duration lose) {
        this.charges = new FirstAnswerLost(lose);
    }

    @Schema(name = "charge_card", description = "Charges the customer's card for an order")
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCharge")
    public String chargeCard(@IntentKey @Schema(name = "orderId", description = "order id") String orderId,
                             @Schema(name = "amount", description = "the amount, in any wording") String amount)
            throws IOException, InterruptedException {
        return charges.charge(orderId, Task.current().map(Task::id).orElse("none") + "/" + Task.current().map(Task::actor).orElse("-")
                + "@" + Thread.currentThread().getName());
    }

    /** Probe: the processor's record of a charge for this order; null when there is none. */
    public String findCharge(String orderId, String amount) throws IOException, InterruptedException {
        return FirstAnswerLost.find(orderId);
    }
}

package dev.effectful.it.googleadk.app;

import com.google.adk.tools.Annotations.Schema;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.agent.e2e.apps.LostChargeTools;

import java.io.IOException;
import java.time.Duration;

/**
 * The agent's tool, written as an ADK application writes it (a method given to
 * {@code FunctionTool.create}) with the Effectful annotations and no Task code. {@code charge_card}
 * loses its answer the first time it runs in a task: the loopback service applies the charge and never
 * answers, so the call ends in a read timeout after the effect.
 */
public class ShopTools extends LostChargeTools {

    /** @param lose how long the lost first answer is waited for; the bodies are recorded as {@code task/actor@thread} */
    public ShopTools(Duration lose) {
        super(lose);
    }

    @Schema(name = "charge_card", description = "Charges the customer's card for an order")
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCharge")
    public String chargeCard(@IntentKey @Schema(name = "orderId", description = "order id") String orderId,
                             @Schema(name = "amount", description = "the amount, in any wording") String amount)
            throws IOException, InterruptedException {
        return charges.charge(orderId, Task.current().map(Task::id).orElse("none") + "/" + Task.current().map(Task::actor).orElse("-")
                + "@" + Thread.currentThread().getName());
    }
}

package dev.effectful.it.embabel.app;

import com.embabel.agent.api.annotation.LlmTool;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.agent.e2e.apps.FirstAnswerLost;
import dev.effectful.agent.e2e.apps.LostChargeTools;

import java.io.IOException;
import java.time.Duration;

/**
 * The agent's tools, written the Embabel way ({@code @LlmTool}) with the Effectful annotations and no Task
 * code; the body and the probe {@code findCharge} are {@link LostChargeTools}'. {@code chargeCard} loses its answer the first time it runs in a task: the loopback service applies
 * the charge and never answers, so the call ends in a read timeout after the effect.
 */
public class ShopTools extends LostChargeTools {

    /** @param lose how long the lost first answer is waited for; the bodies are recorded as {@code task@thread} */
    public ShopTools(Duration lose) {
        super(lose);
    }

    @LlmTool(name = "charge_card", description = "Charges the customer's card for an order")
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCharge")
    public String chargeCard(@LlmTool.Param(description = "order id") @IntentKey String orderId,
                             @LlmTool.Param(description = "the amount, in any wording") String amount)
            throws IOException, InterruptedException {
        return charges.charge(orderId, FirstAnswerLost.taskAtThread());
    }
}

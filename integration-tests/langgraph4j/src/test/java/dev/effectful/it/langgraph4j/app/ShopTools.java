package dev.effectful.it.langgraph4j.app;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.agent.e2e.apps.FirstAnswerLost;
import dev.effectful.agent.e2e.apps.LostChargeTools;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;

import java.io.IOException;
import java.time.Duration;

/**
 * The agent executor's tool, written as a LangChain4j tool with the Effectful annotations and no Task
 * code; the body and the probe {@code findCharge} are {@link LostChargeTools}'. {@code charge_card} loses its answer the first time it runs in a task: the loopback service
 * applies the charge and never answers, so the call ends in a read timeout after the effect.
 */
public class ShopTools extends LostChargeTools {

    /** @param lose how long the lost first answer is waited for; the bodies are recorded as {@code task@thread} */
    public ShopTools(Duration lose) {
        super(lose);
    }

    @Tool(name = "charge_card", value = "Charges the customer's card for an order")
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCharge")
    public String chargeCard(@IntentKey @P("order id") String orderId, @P("the amount, in any wording") String amount)
            throws IOException, InterruptedException {
        return charges.charge(orderId, FirstAnswerLost.taskAtThread());
    }
}

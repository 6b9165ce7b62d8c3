package dev.effectful.it.embabel.app;

import com.embabel.agent.api.annotation.LlmTool;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.agent.e2e.apps.Http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The agent's tools, written the Embabel way ({@code @LlmTool}) with the Effectful annotations and no Task
 * code. {@code chargeCard} loses its answer the first time it runs in a task: the loopback service applies
 * the charge and never answers, so the call ends in a read timeout after the effect.
 */
public class ShopTools {

    private final Duration lose;
    private final Set<String> lostIn = ConcurrentHashMap.newKeySet();
    /** One entry per body of charge_card that ran: {@code task@thread}. */
    final List<String> chargeBodies = new CopyOnWriteArrayList<>();

    /** @param lose how long the lost first answer is waited for before the read times out */
    public ShopTools(Duration lose) {
        this.lose = lose;
    }

    @LlmTool(name = "charge_card", description = "Charges the customer's card for an order")
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCharge")
    public String chargeCard(@LlmTool.Param(description = "order id") @IntentKey String orderId,
                             @LlmTool.Param(description = "the amount, in any wording") String amount)
            throws IOException, InterruptedException {
        String task = Task.current().map(Task::id).orElse("none");
        chargeBodies.add(task + "@" + Thread.currentThread().getName());
        if (lostIn.add(task)) {
            Http.post("/apply-then-hang/charge", orderId, lose); // applied, then no answer: HttpTimeoutException
            throw new IllegalStateException("the ledger answered an apply-then-hang");
        }
        return Http.effect("charge", orderId);
    }

    /** Probe: the processor's record of a charge for this order; null when there is none. */
    public String findCharge(String orderId, String amount) throws IOException, InterruptedException {
        HttpResponse<String> r = Http.get("/effect/charge", orderId);
        return r.statusCode() == 200 ? r.body() : null;
    }
}

package dev.effectful.junit.samples;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.net.URI;

/**
 * A correct CREATE whose only protection is its key header, the README's way: the agent puts the intent
 * key on its requests and the service deduplicates on it, so a re-run after a lost answer creates nothing.
 */
public class OrderTools extends HttpTool {

    public OrderTools(URI base) {
        super(base);
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "create_order", keyHeader = "Idempotency-Key", check = "checkCreated")
    public String createOrder(@IntentKey String customerId, String note) throws IOException, InterruptedException {
        return bodyOf(post("orders?customer=" + q(customerId), note));
    }

    void checkCreated(String answer) {
        refuseErrors(answer, "the shop refused the order");
    }
}

package dev.effectful.it.mcp;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.agent.e2e.apps.Http;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The MCP server's guarded tools. Every effect is a request to the test's loopback ledger, which counts
 * it; the ledger key names the actor the server ran the call as, so a test sees whose effect it was.
 */
public class ServerTools {

    @EffectfulTool(kind = EffectKind.SEND, name = "send_invoice")
    public String sendInvoice(@IntentKey String orderId, String note) throws IOException, InterruptedException {
        String actor = Task.current().map(Task::actor).orElse("");
        Http.effect("invoice", orderId + "|" + actor);
        return "invoice " + orderId + " sent for " + (actor.isEmpty() ? "nobody" : actor) + " in task "
                + Task.current().map(Task::id).orElse("none");
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", floorMillis = 2000)
    public String chargeCard(@IntentKey String orderId) throws IOException, InterruptedException {
        Http.effect("charge", orderId);
        return "charged " + orderId;
    }

    /** Applies its effect, then never answers: the test kills the server while it waits. */
    @EffectfulTool(kind = EffectKind.SEND, name = "ship_order", probe = "findShipment")
    public String shipOrder(@IntentKey String orderId) throws IOException, InterruptedException {
        Http.post("/apply-then-hang/ship", orderId, Duration.ofSeconds(120));
        return "shipped " + orderId;
    }

    Optional<String> findShipment(String orderId) throws IOException, InterruptedException {
        return Http.get("/effect/ship", orderId).statusCode() == 200 ? Optional.of("shipped " + orderId) : Optional.empty();
    }
}

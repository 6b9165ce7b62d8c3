package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A card charge keyed by the card's token (a secret) and the order, with a probe, as a fleet runs it. */
public class FleetCardTools {

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCardCharge")
    public String charge(@IntentKey @Redact String cardToken, @IntentKey String orderId)
            throws IOException, InterruptedException {
        System.out.println("BODY charge_card " + orderId);
        System.out.flush();
        if ("hang".equals(System.getProperty("charge.mode"))) {
            // the card is charged, then the host dies before the answer comes back
            Http.post("/apply-then-hang/card", orderId, Duration.ofSeconds(120));
        }
        return Http.effect("card", orderId);
    }

    public String findCardCharge(String cardToken, String orderId) throws IOException, InterruptedException {
        HttpResponse<String> r = Http.get("/effect/card", orderId);
        return r.statusCode() == 200 ? r.body() : null;
    }
}

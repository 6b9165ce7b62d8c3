package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Tools of a replicated agent: a card charge with a probe, a shipment without one, a price read. */
public class FleetTools {

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge", probe = "findCharge")
    public String charge(@IntentKey String orderId) throws IOException, InterruptedException {
        System.out.println("BODY charge " + orderId);
        System.out.flush();
        if ("hang".equals(System.getProperty("charge.mode"))) {
            // the card is charged, then the host dies before the answer comes back
            Http.post("/apply-then-hang/charge", orderId, Duration.ofSeconds(120));
        }
        return Http.effect("charge", orderId);
    }

    public String findCharge(String orderId) throws IOException, InterruptedException {
        HttpResponse<String> r = Http.get("/effect/charge", orderId);
        return r.statusCode() == 200 ? r.body() : null;
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "ship")
    public String ship(@IntentKey String orderId) throws IOException, InterruptedException {
        System.out.println("BODY ship " + orderId);
        System.out.flush();
        HttpResponse<String> r = Http.post("/slow/800", orderId, Duration.ofSeconds(30));
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode());
        }
        return r.body();
    }

    @EffectfulTool(kind = EffectKind.READ, name = "price")
    public int price(@IntentKey String sku) {
        return 42;
    }
}

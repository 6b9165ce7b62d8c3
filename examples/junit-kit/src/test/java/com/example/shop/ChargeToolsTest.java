package com.example.shop;

import dev.effectful.junit.EffectfulKit;
import dev.effectful.junit.FakeHttpService;
import dev.effectful.junit.FakeHttpService.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our charge tool against the six failures, on a fake payment service: no agent, no build flags. */
class ChargeToolsTest {

    @RegisterExtension
    final EffectfulKit kit = new EffectfulKit();

    @Test
    void chargeSurvivesTheSixFailures() {
        Map<String, String> charges = new ConcurrentHashMap<>();
        FakeHttpService payments = kit.httpService(req -> {
            String order = req.query("order").orElseThrow();
            if (req.method().equals("POST")) {
                String charge = "{\"id\":\"ch_" + (charges.size() + 1) + "\",\"status\":\"succeeded\"}";
                charges.merge(order, charge, (a, b) -> a + b);   // a second charge is a second effect
                return Response.ok(charge);
            }
            String found = charges.get(order);
            return found == null ? Response.status(404) : Response.ok(found);
        }).errorAnswer("{\"status\":\"failed\",\"error\":\"card_declined\"}");

        kit.tool(ChargeTools.class, () -> new ChargeTools(payments.uri()))
                .call(t -> t.charge("order-7741", 1299, "Order 7741: 2 books"))
                .rephrased(t -> t.charge("order-7741", 1299, "Charge for order #7741 (two books)"))
                .effects(() -> charges.values().stream().mapToInt(v -> v.split("\"id\"").length - 1).sum())
                .faultsAt(payments)
                .run()
                .assertPassed();
    }

    @Test
    void theAuditFindsNothingToFix() {
        assertTrue(kit.audit(ChargeTools.class).stream().noneMatch(v -> v.failed()),
                () -> kit.audit(ChargeTools.class).toString());
    }
}

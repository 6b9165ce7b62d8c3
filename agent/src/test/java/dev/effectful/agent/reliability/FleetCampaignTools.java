package dev.effectful.agent.reliability;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;

import java.io.IOException;

/**
 * The fleet campaign's tools keyed by a secret: the card token enters the intent key as a fingerprint
 * under the fleet's one key, so a task moved to another host repeats the same intent there. One MONEY
 * with a probe, one SEND without (held for a person when a kill cuts it).
 */
public class FleetCampaignTools {

    private static String key() {
        return Attempt.current().map(Attempt::intentKey).orElse("none");
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_token", probe = "findTokenCharge")
    public String chargeToken(@IntentKey @Redact String token, @IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("charge_token", ref, key(), "count", null);
    }

    String findTokenCharge(String token, String ref) throws IOException, InterruptedException {
        return LedgerClient.find("charge_token", ref);
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_token")
    public String sendToken(@IntentKey @Redact String token, @IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("send_token", ref, key(), "count", null);
    }
}

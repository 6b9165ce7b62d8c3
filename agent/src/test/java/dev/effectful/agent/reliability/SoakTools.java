package dev.effectful.agent.reliability;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.net.http.HttpTimeoutException;

/**
 * The soak's tools: a mix of kinds, each an HTTP call to the ledger carrying its intent key. A
 * {@code send_sms} whose reference starts with {@code lost-} loses its answer after the ledger
 * applied it: unknown outcome, no probe, so the rules hold it for a person and retention must keep it.
 */
public class SoakTools {

    /** The reference prefix of sends whose answer is lost. */
    public static final String LOST = "lost-";

    private static String key() {
        return Attempt.current().map(Attempt::intentKey).orElse("none");
    }

    @EffectfulTool(kind = EffectKind.READ, name = "get_price")
    public String getPrice(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.read("get_price", ref);
    }

    @EffectfulTool(kind = EffectKind.IDEMPOTENT, name = "set_address")
    public String setAddress(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("set_address", ref, key(), "set", null);
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "create_ticket", probe = "findTicket")
    public String createTicket(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("create_ticket", ref, key(), "count", null);
    }

    String findTicket(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("create_ticket", ref);
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "create_order", keyable = true)
    public String createOrder(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("create_order", ref, key(), "keyed", key());
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail")
    public String sendEmail(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("send_email", ref, key(), "count", null);
    }

    String findEmail(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("send_email", ref);
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_sms")
    public String sendSms(@IntentKey String ref) throws IOException, InterruptedException {
        String answer = LedgerClient.effect("send_sms", ref, key(), "count", null);
        if (ref.startsWith(LOST)) {
            // the request went out and was applied; the reply never came back
            throw new HttpTimeoutException("request timed out");
        }
        return answer;
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCharge")
    public String chargeCard(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("charge_card", ref, key(), "count", null);
    }

    String findCharge(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("charge_card", ref);
    }

    @EffectfulTool(kind = EffectKind.DESTRUCTIVE, name = "delete_record")
    public String deleteRecord(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("delete_record", ref, key(), "count", null);
    }
}

package dev.effectful.bench;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

/**
 * The tool every comparator calls: three small arguments, a small String result, no I/O of its own,
 * so what is measured is the guard around it. Without the agent these are plain methods.
 */
public class MailTools {

    static final String SUBJECT = "Your order has shipped";

    @EffectfulTool(kind = EffectKind.SEND, name = "send_email")
    public String sendEmail(@IntentKey String to, String subject, int priority) {
        return "queued";
    }

    @EffectfulTool(kind = EffectKind.READ, name = "get_price")
    public String getPrice(@IntentKey String sku) {
        return "42.00";
    }

    /** True only when the agent rewrote this class: a benchmark of "Effectful" without it would lie. */
    @EffectfulTool(kind = EffectKind.READ, name = "agent_check")
    public boolean agentActive() {
        return Attempt.current().isPresent();
    }
}

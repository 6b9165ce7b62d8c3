package dev.effectful.agent.e2e.apps;

import dev.effectful.Approval;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;

import java.io.IOException;

/**
 * Tools whose new intents wait for a person's approval: {@code charge} declares it; {@code refund}
 * needs it only when the configuration names it ({@code effectful.approval=refund}). Each effect lands
 * at the loopback ledger, so a body that ran is counted outside the agent.
 */
public class ApprovalTools {

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge", approval = Approval.REQUIRED)
    public String charge(@IntentKey String order, String memo, @Redact String cardToken)
            throws IOException, InterruptedException {
        return Http.effect("charge", order);
    }

    @EffectfulTool(kind = EffectKind.DESTRUCTIVE, name = "refund")
    public String refund(@IntentKey String order, String memo) throws IOException, InterruptedException {
        return Http.effect("refund", order);
    }
}

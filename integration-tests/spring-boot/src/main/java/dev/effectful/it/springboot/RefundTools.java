package dev.effectful.it.springboot;

import dev.effectful.Approval;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import org.springframework.stereotype.Component;

/** A tool a person must approve before its body runs: its first call leaves an intent waiting for approval. */
@Component
public class RefundTools {

    @EffectfulTool(kind = EffectKind.MONEY, name = "refund", approval = Approval.REQUIRED)
    public String refund(@IntentKey String order, int amount) {
        return "refunded " + amount + " on " + order;
    }
}

package dev.effectful.it.mcp;

import dev.effectful.Approval;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;
import dev.effectful.Task;
import dev.effectful.agent.e2e.apps.Http;

import java.io.IOException;

/**
 * A guarded tool that needs a person's approval, served by {@link McpServerApp} with {@code -Dit.tools=approval}.
 * Its effect is a request to the test's loopback ledger, keyed by order and actor; the card token is
 * {@code @Redact}, so the person asked must see its fingerprint, never {@link #CARD}.
 */
public class RefundTools {

    /** The redacted argument every client passes: it must appear in no elicitation and no journal record. */
    public static final String CARD = "tok_4111111111111111";

    @EffectfulTool(kind = EffectKind.MONEY, name = "refund_order", approval = Approval.REQUIRED)
    public String refund(@IntentKey String orderId, String reason, @Redact String cardToken)
            throws IOException, InterruptedException {
        String actor = Task.current().map(Task::actor).orElse("");
        Http.effect("refund", orderId + "|" + actor);
        return "refunded " + orderId + " for " + actor;
    }
}

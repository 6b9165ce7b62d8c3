package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Probes of the forms the Javadoc and the README name. Every body loses its first answer (an
 * unclassified exception: unknown), so the next call of the same intent asks the probe.
 */
public class ProbeTools {

    public final AtomicInteger bodies = new AtomicInteger();
    /** What the probes answer: the found value, or null for absent. */
    public volatile String found;

    private <T> T body(T value) {
        if (bodies.incrementAndGet() == 1) {
            throw new IllegalStateException("the answer was lost");
        }
        return value;
    }

    // ---- the @EffectfulTool Javadoc's example, as written there ----

    @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findSentEmail")
    String sendEmail(@IntentKey String orderId, String subject, String body) {
        return body("sent:" + orderId);
    }

    Optional<String> findSentEmail(String orderId, String subject, String body) {
        return Optional.ofNullable(found);
    }

    // ---- an int tool whose probe says absent with null ----

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge", probe = "findCharge")
    public int charge(@IntentKey String id) {
        return body(100);
    }

    Integer findCharge(String id) {
        return found == null ? null : Integer.valueOf(found);
    }

    // ---- a boolean probe for a String tool: found, without a value ----

    @EffectfulTool(kind = EffectKind.SEND, name = "page", probe = "wasPaged")
    public String page(@IntentKey String who) {
        return body("paged:" + who);
    }

    boolean wasPaged(String who) {
        return found != null;
    }
}

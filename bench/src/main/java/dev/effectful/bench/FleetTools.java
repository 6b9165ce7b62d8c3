package dev.effectful.bench;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The fleet bench's tool: a MONEY call with a trivial body that counts how often it ran, so the
 * shared-ids walk can check that every id was charged exactly once across all hosts.
 */
public class FleetTools {

    /** Bodies run in this JVM. */
    static final AtomicLong BODIES = new AtomicLong();

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge")
    public String charge(@IntentKey String id, long cents) {
        BODIES.incrementAndGet();
        return "charged";
    }

    /** True only when the agent rewrote this class. */
    @EffectfulTool(kind = EffectKind.READ, name = "fleet_agent_check")
    public boolean agentActive() {
        return Attempt.current().isPresent();
    }
}

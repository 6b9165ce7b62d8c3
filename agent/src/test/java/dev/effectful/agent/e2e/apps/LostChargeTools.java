package dev.effectful.agent.e2e.apps;

import java.io.IOException;
import java.time.Duration;

/**
 * What the framework tests' {@code charge_card} tool classes share: the body ({@link FirstAnswerLost}, whose
 * first answer in a task is lost) and the probe {@code findCharge}, which the engine finds here as it finds a
 * probe in any superclass. A framework's tool class extends it and declares only {@code chargeCard}, with its
 * framework's annotations and the Effectful ones ({@code probe = "findCharge"}), handing the body to
 * {@link #charges}.
 */
public abstract class LostChargeTools {

    /** The body; its {@code bodies()} has one entry per body of charge_card that ran. */
    public final FirstAnswerLost charges;

    /** @param lose how long the lost first answer is waited for before the read times out */
    protected LostChargeTools(Duration lose) {
        this.charges = new FirstAnswerLost(lose);
    }

    /** Probe: the processor's record of a charge for this order; null when there is none. */
    public String findCharge(String orderId, String amount) throws IOException, InterruptedException {
        return FirstAnswerLost.find(orderId);
    }
}

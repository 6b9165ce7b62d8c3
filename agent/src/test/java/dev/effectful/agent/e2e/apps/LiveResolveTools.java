package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;

/**
 * Money tools whose effect lands at the loopback ledger and whose answer then never comes while
 * {@link #hang} is set: the per-attempt timeout interrupts them and the outcome is unknown, with
 * no probe to settle it, so a person must.
 */
public class LiveResolveTools {

    /** While true, the body applies its effect and then waits past its timeout. */
    public static volatile boolean hang = true;

    @EffectfulTool(kind = EffectKind.MONEY, name = "transfer", timeoutMillis = 6000)
    public String transfer(@IntentKey String id) throws IOException, InterruptedException {
        String done = Http.effect("transfer", id);
        if (hang) {
            Thread.sleep(60_000);
        }
        return done;
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "payout_count", timeoutMillis = 6000)
    public int payoutCount(@IntentKey String id) throws IOException, InterruptedException {
        Http.effect("payout_count", id);
        if (hang) {
            Thread.sleep(60_000);
        }
        return 7;
    }
}

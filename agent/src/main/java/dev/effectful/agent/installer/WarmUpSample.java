package dev.effectful.agent.installer;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

/**
 * Never loaded, never called: its class file is rewritten once on the warm-up thread (the result
 * thrown away) so that the first application tool class does not pay for loading and warming the
 * rewriting pipeline on the application's own thread (about a quarter of a second, measured).
 */
final class WarmUpSample {

    private WarmUpSample() {
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "warm_up")
    String send(@IntentKey String to, String text, int priority) {
        return to + text + priority;
    }
}

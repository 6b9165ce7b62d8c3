package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;

/** A tool class of its own, so that the first call of {@link FirstCallApp} is what loads (and rewrites) it. */
public class FirstCallTools {

    /** Needs 2.5 s of its task's budget: a task of 3 s may spend at most 0.5 s before calling it. */
    @EffectfulTool(kind = EffectKind.SEND, name = "first_send", floorMillis = 2500)
    public String firstSend(@IntentKey String to) throws IOException, InterruptedException {
        return Http.effect("first_send", Attempt.current().map(Attempt::intentKey).orElse("no-attempt"));
    }
}

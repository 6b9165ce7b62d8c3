package dev.effectful.agent.e2e.apps.iso;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.Task;

/**
 * Tools whose answers show which copy of the API the agent's runtime used: the attempt and task
 * it bound are only visible here if the runtime and the application share one {@code dev.effectful}.
 */
public class IsoTools {

    static String seen() {
        return Attempt.current().map(Attempt::intentKey).orElse("no-attempt") + "|"
                + Task.current().map(Task::id).orElse("no-task");
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "record")
    public String record(@IntentKey String id, String payload) {
        return "recorded:" + id + "|" + seen();
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "reject")
    public String reject(@IntentKey String id) {
        throw new IllegalArgumentException("rejected " + id);
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "book")
    public Outcome<String> book(@IntentKey String id, boolean fail) {
        if (fail) {
            throw new IllegalArgumentException("no seat for " + id);
        }
        return Outcome.ok("booked:" + id);
    }
}

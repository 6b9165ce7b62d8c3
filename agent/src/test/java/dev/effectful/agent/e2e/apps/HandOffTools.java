package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;

import java.io.IOException;

/** One SEND tool against the loopback ledger that answers with the task it ran in. */
public class HandOffTools {

    /**
     * Applies one effect, counted by the ledger under {@code verb}, and answers {@code <task id or none>}:
     * a repeat answered from the journal gives back the first run's answer.
     */
    @EffectfulTool(kind = EffectKind.SEND, name = "send_note")
    public String sendNote(@IntentKey String to, String text, String verb) throws IOException, InterruptedException {
        String key = Attempt.current().map(Attempt::intentKey).orElse("no-attempt");
        Http.effect(verb, key);
        return Task.current().map(Task::id).orElse("none");
    }
}

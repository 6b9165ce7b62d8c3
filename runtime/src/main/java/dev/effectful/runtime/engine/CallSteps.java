package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Status;
import dev.effectful.runtime.classify.Classifier;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.values.ArgsRenderer;

/**
 * What the batch protocol uses of a call's stages: it admits, runs and concludes each item by the
 * same rules as a single call, through these steps only, never the engine as a whole.
 */
interface CallSteps {

    /** Answers the call with a refusal: a {@code refused} record, the log line, the failure. */
    void refuse(Call call, Status status, EffectApplied effect, Long retryAfterS, String message);

    /** Answers the call without its body; waiters of the same intent get the answer too. */
    void finish(Call call, Completion answer);

    /** Arms the alarm at min(task deadline, per-attempt timeout) for the body about to run. */
    void armDeadline(Call call);

    CallRecords records();

    IntentStore store();

    ProbeRunner probes();

    ArgsRenderer argsRenderer();

    /** The classifier with the call's redaction applied to what it quotes, before quotes are capped. */
    Classifier classifier(Call call);

    OutcomeShaper shaper();

    /** The steps over the stages of one engine. */
    record Of(Refusals refusals, InFlightCalls inFlight, Execution execution, CallRecords records, IntentStore store,
              ProbeRunner probes, ArgsRenderer argsRenderer, Classifier classifier, OutcomeShaper shaper)
            implements CallSteps {

        @Override
        public void refuse(Call call, Status status, EffectApplied effect, Long retryAfterS, String message) {
            refusals.refuse(call, status, effect, retryAfterS, message);
        }

        @Override
        public void finish(Call call, Completion answer) {
            inFlight.finish(call, answer);
        }

        @Override
        public void armDeadline(Call call) {
            execution.armDeadline(call);
        }

        @Override
        public Classifier classifier(Call call) {
            return call.redactor().active() ? classifier.redacting(call.redactor()) : classifier;
        }
    }
}

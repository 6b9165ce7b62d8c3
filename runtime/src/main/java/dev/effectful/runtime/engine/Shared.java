package dev.effectful.runtime.engine;

import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.ResolveHint;
import dev.effectful.core.values.ArgsRenderer;

/**
 * What the stages of a call ({@link Admission}, {@link Execution}) share, made once by the engine: the
 * journal's records, the intent store, the argument renderer, the calls in flight, the refusals and replays
 * a stage hands a call to, the resolve command held intents name, and their one WARN line each.
 */
record Shared(CallRecords records, IntentStore store, ArgsRenderer argsRenderer, InFlightCalls inFlight,
              Refusals refusals, Replays replays, ResolveHint hint, HeldIntents held) {
}

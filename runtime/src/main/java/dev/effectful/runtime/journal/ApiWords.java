package dev.effectful.runtime.journal;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Status;

/**
 * The one place the API's enums meet the journal's. The journal has its own enums ({@link Kind},
 * {@link OutcomeWord}, {@link Effect}) because the CLI reads journals in a class loader where the
 * API's classes are not loaded (JournalCliIT found {@code ClassNotFoundException EffectKind}); the
 * engine, which has both, converts here. Never call this from the CLI.
 */
public final class ApiWords {

    private ApiWords() {
    }

    public static Kind kind(EffectKind k) {
        return k == null ? null : Kind.valueOf(k.name());
    }

    public static OutcomeWord outcome(Status s) {
        return s == null ? null : OutcomeWord.valueOf(s.name());
    }

    public static Effect effect(EffectApplied e) {
        return e == null ? null : Effect.valueOf(e.name());
    }

    public static EffectApplied applied(Effect e) {
        return e == null ? null : EffectApplied.valueOf(e.name());
    }

    public static Status status(OutcomeWord o) {
        return o == null ? null : Status.valueOf(o.name());
    }
}

package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Status;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;

/**
 * The one place the API's enums meet the journal's. The journal has its own enums ({@link Kind},
 * {@link OutcomeWord}, {@link Effect}) because the CLI reads journals in a class loader where the
 * API's classes are not loaded (JournalCliIT found {@code ClassNotFoundException EffectKind}); the
 * engine, which has both, converts here. Never call this from the CLI.
 */
public final class ApiWords {

    // by the API enum's ordinal, matched by name once: valueOf per record was a hash lookup every call
    private static final Kind[] KINDS = byName(EffectKind.values(), Kind.class);
    private static final OutcomeWord[] OUTCOMES = byName(Status.values(), OutcomeWord.class);
    private static final Effect[] EFFECTS = byName(EffectApplied.values(), Effect.class);

    private ApiWords() {
    }

    public static Kind kind(EffectKind k) {
        return k == null ? null : KINDS[k.ordinal()] != null ? KINDS[k.ordinal()] : Kind.valueOf(k.name());
    }

    public static OutcomeWord outcome(Status s) {
        return s == null ? null : OUTCOMES[s.ordinal()] != null ? OUTCOMES[s.ordinal()] : OutcomeWord.valueOf(s.name());
    }

    public static Effect effect(EffectApplied e) {
        return e == null ? null : EFFECTS[e.ordinal()] != null ? EFFECTS[e.ordinal()] : Effect.valueOf(e.name());
    }

    /** The journal's constant of each API constant's name; null where it has none (valueOf then throws, as it did). */
    private static <A extends Enum<A>, J extends Enum<J>> J[] byName(A[] api, Class<J> journal) {
        @SuppressWarnings("unchecked")
        J[] out = (J[]) java.lang.reflect.Array.newInstance(journal, api.length);
        for (A a : api) {
            try {
                out[a.ordinal()] = Enum.valueOf(journal, a.name());
            } catch (IllegalArgumentException none) {
                // left null: the call that meets it fails as before, not this class's initialisation
            }
        }
        return out;
    }

    public static EffectApplied applied(Effect e) {
        return e == null ? null : EffectApplied.valueOf(e.name());
    }

    public static Status status(OutcomeWord o) {
        return o == null ? null : Status.valueOf(o.name());
    }
}

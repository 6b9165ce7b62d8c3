package dev.effectful.agent.e2e.apps.loading;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.util.function.Function;

/** Defined by {@link LoadingApp} as a hidden class ({@code Lookup.defineHiddenClass}) from this class file. */
public final class HiddenMailer implements Function<String, String> {

    @EffectfulTool(kind = EffectKind.SEND)
    public String mail(@IntentKey String to) {
        return LoadingTools.effect("hidden_mail", to);
    }

    @Override
    public String apply(String to) {
        return mail(to);
    }
}

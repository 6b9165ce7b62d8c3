package dev.effectful.agent.e2e.apps.loading;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.agent.e2e.apps.Http;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Tools held where the agent's class-file transformer does not see them by default: a class loaded
 * from a CDS/AOT archive or by an earlier agent, an interface implemented by lambdas and method
 * references, a class defined as a hidden class. Every effect goes to the loopback ledger, which counts it.
 */
public final class LoadingTools {

    private LoadingTools() {
    }

    /** An ordinary tool class. */
    public static final class Sender {
        @EffectfulTool(kind = EffectKind.SEND)
        public String send(@IntentKey String to) {
            return effect("send", to);
        }

        @EffectfulTool(kind = EffectKind.READ)
        public String look(@IntentKey String what) {
            return "looked:" + what;
        }
    }

    /** Implemented by a lambda and a method reference in {@link LoadingApp}. */
    public interface Payments {
        @EffectfulTool(kind = EffectKind.MONEY)
        String pay(@IntentKey String order);
    }

    /** The target of a method reference: no annotation of its own. */
    public static String chargeByReference(String order) {
        return effect("pay_ref", order);
    }

    static String effect(String verb, String key) {
        try {
            return Http.effect(verb, key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

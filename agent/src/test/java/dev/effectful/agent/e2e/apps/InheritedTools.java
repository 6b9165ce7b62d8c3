package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;

import java.io.IOException;

/**
 * Tools declared where applications declare them: on interfaces (ports and adapters, generated
 * clients), on abstract classes, on default methods. The implementations carry no annotation and
 * no Effectful code; every effect goes to the loopback ledger, which counts it.
 */
public final class InheritedTools {

    private InheritedTools() {
    }

    /** A port: the annotation, the key and the secret are all marked on the interface only. */
    public interface Payments {
        @EffectfulTool(kind = EffectKind.MONEY, name = "charge")
        String charge(@IntentKey String orderId, int cents, @Redact String cardToken);
    }

    /** Its adapter, not annotated: the one class that does the effect. */
    public static class CardPayments implements Payments {
        @Override
        public String charge(String orderId, int cents, String cardToken) {
            return effect("charge");
        }
    }

    /** Declared abstract in a base class. */
    public abstract static class Shipper {
        @EffectfulTool(kind = EffectKind.CREATE, name = "ship")
        public abstract String ship(@IntentKey String parcel);
    }

    public static final class PostShipper extends Shipper {
        @Override
        public String ship(String parcel) {
            return effect("ship");
        }
    }

    /** A concrete annotated method that a subclass overrides without annotation and without super. */
    public static class Mailer {
        @EffectfulTool(kind = EffectKind.SEND, name = "mail")
        public String mail(@IntentKey String to) {
            return effect("mail_base");
        }
    }

    public static final class LoudMailer extends Mailer {
        @Override
        public String mail(String to) {
            return effect("mail");
        }
    }

    /** A default method, and an implementation that overrides it without annotation. */
    public interface Notifier {
        @EffectfulTool(kind = EffectKind.SEND, name = "ping")
        default String ping(@IntentKey String user) {
            return effect("ping");
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "page")
        default String page(@IntentKey String user) {
            return effect("page_default");
        }
    }

    public static final class Pager implements Notifier {
        @Override
        public String page(String user) {
            return effect("page");
        }
    }

    /** A generic port: the implementation's signature is pay(String), the interface's book(Object). */
    public interface Port<T> {
        @EffectfulTool(kind = EffectKind.CREATE, name = "book")
        String book(@IntentKey T id);
    }

    public static final class RoomPort implements Port<String> {
        @Override
        public String book(String id) {
            return effect("book");
        }
    }

    /** Annotated on both sides, differently: the implementation's own annotation wins. */
    public interface Labels {
        @EffectfulTool(kind = EffectKind.SEND, name = "label_interface")
        String label(@IntentKey String id);
    }

    public static final class OwnLabels implements Labels {
        @Override
        @EffectfulTool(kind = EffectKind.CREATE, name = "label_own")
        public String label(@IntentKey String id) {
            return effect("label_own");
        }
    }

    /** Implemented only by a JDK proxy whose handler does the effect, as a generated HTTP client. */
    public interface Remote {
        @EffectfulTool(kind = EffectKind.CREATE, name = "remote_create")
        String create(@IntentKey String id);
    }

    static String effect(String verb) {
        try {
            return Http.effect(verb, CoreTools.key());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

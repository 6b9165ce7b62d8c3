package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;

import java.util.concurrent.atomic.AtomicInteger;

/** Tools for the key scenarios; each counts the bodies that ran in this process. */
public class KeysTools {

    public static final AtomicInteger CHARGES = new AtomicInteger();
    public static final AtomicInteger PAYMENTS = new AtomicInteger();
    public static final AtomicInteger NOTES = new AtomicInteger();

    /** An order id with no actor in it: two tasks' calls differ only by task and actor. */
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge")
    public String charge(@IntentKey String orderId) {
        return "charged " + orderId + " #" + CHARGES.incrementAndGet();
    }

    /** The card token is a secret and part of the intent: its key needs the journal's secret. */
    @EffectfulTool(kind = EffectKind.MONEY, name = "pay")
    public String pay(@IntentKey @Redact String cardToken, @IntentKey String orderId) {
        return "paid " + orderId + " #" + PAYMENTS.incrementAndGet();
    }

    /** A key that needs no secret. */
    @EffectfulTool(kind = EffectKind.CREATE, name = "note")
    public String note(@IntentKey String noteId) {
        return "noted " + noteId + " #" + NOTES.incrementAndGet();
    }

    /** An order whose id is a private field with no getter: its keyed view drops it. */
    public static final class Order {
        private final String id;
        public final String currency;

        public Order(String id, String currency) {
            this.id = id;
            this.currency = currency;
        }

        @Override
        public String toString() {
            return "Order " + id;
        }
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "refund")
    public String refund(@IntentKey Order order) {
        return "refunded " + order;
    }
}

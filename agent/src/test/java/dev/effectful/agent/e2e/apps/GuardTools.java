package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;

import java.util.concurrent.atomic.AtomicInteger;

/** A money tool whose body counts its runs in this JVM, and a read: whether a call ran is never taken on trust. */
public class GuardTools {

    /** How many times a body of {@link #pay} or {@link #refund} ran in this JVM. */
    public static final AtomicInteger MONEY_BODIES = new AtomicInteger();

    @EffectfulTool(kind = EffectKind.MONEY, name = "pay")
    public String pay(@IntentKey String id, long cents) {
        MONEY_BODIES.incrementAndGet();
        return "paid:" + id;
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "refund")
    public Outcome<String> refund(@IntentKey String id) {
        MONEY_BODIES.incrementAndGet();
        return Outcome.ok("refunded:" + id);
    }

    /** A read whose service does not answer in time: a checked exception, never to reach the caller as itself. */
    @EffectfulTool(kind = EffectKind.READ, name = "quote")
    public int quote(@IntentKey String symbol) throws java.net.SocketTimeoutException {
        throw new java.net.SocketTimeoutException("Read timed out");
    }

    @EffectfulTool(kind = EffectKind.READ, name = "balance")
    public int balance(@IntentKey String account) {
        return 100;
    }
}

package com.example;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.util.concurrent.atomic.AtomicInteger;

/** A tool with a side effect: each run of the body is one email "sent". */
public class Mailer {

    /** Emails actually sent, i.e. runs of the body. */
    public static final AtomicInteger SENT = new AtomicInteger();

    @EffectfulTool(kind = EffectKind.SEND, name = "send_welcome")
    public String sendWelcome(@IntentKey String customerId, String text) {
        return "welcome #" + SENT.incrementAndGet() + " to " + customerId;
    }
}

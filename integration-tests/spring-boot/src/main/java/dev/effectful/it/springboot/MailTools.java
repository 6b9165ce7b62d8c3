package dev.effectful.it.springboot;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import org.springframework.stereotype.Component;

import java.net.SocketTimeoutException;

/** Tools as a Spring bean, loaded by Spring Boot's launcher class loader from {@code BOOT-INF/classes}. */
@Component
public class MailTools {

    @EffectfulTool(kind = EffectKind.SEND, name = "send_receipt")
    public String sendReceipt(@IntentKey String to) {
        return "sent to " + to;
    }

    /** The mail went out and its answer was lost: nobody knows whether it applied, and no probe can tell. */
    @EffectfulTool(kind = EffectKind.SEND, name = "notify_customer")
    public String notifyCustomer(@IntentKey String to, String text) throws SocketTimeoutException {
        throw new SocketTimeoutException("read timed out");
    }
}

package dev.effectful.junit.samples;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.net.URI;

/**
 * A correct SEND tool: keyed by the order, probed by it ({@link MailTool#findEmail}), its 200s checked
 * ({@link MailTool#checkSent}), its 429s reported with Retry-After.
 */
public class MailTools extends MailTool {

    public MailTools(URI base) {
        super(base);
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
    public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
        return send(orderId, text);
    }
}

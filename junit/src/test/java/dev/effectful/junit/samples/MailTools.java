package dev.effectful.junit.samples;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;

/** A correct SEND tool: keyed by the order, probed by it, its 200s checked, its 429s reported with Retry-After. */
public class MailTools extends HttpTool {

    public MailTools(URI base) {
        super(base);
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
    public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
        return bodyOf(post("emails?order=" + q(orderId), text));
    }

    public String findEmail(String orderId, String text) throws IOException, InterruptedException {
        HttpResponse<String> r = get("emails?order=" + q(orderId));
        return r.statusCode() == 200 ? r.body() : null;
    }

    void checkSent(String answer) {
        if (answer.contains("\"error\"")) {
            throw new IllegalArgumentException("the mail service refused: " + answer);
        }
    }
}

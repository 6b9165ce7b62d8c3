package dev.effectful.junit.samples;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;

/**
 * What the mail tools share, right or wrong: the request that sends a mail, the probe that finds it by
 * order, and the check of the mail service's answer. Each tool says in its annotation which of these it
 * declares; a broken one overrides the part it gets wrong.
 */
public abstract class MailTool extends HttpTool {

    protected MailTool(URI base) {
        super(base);
    }

    /** Sends {@code text} for {@code orderId}: the mail service's answer, 429 and failures as {@link #bodyOf}. */
    protected String send(String orderId, String text) throws IOException, InterruptedException {
        return bodyOf(post("emails?order=" + q(orderId), text));
    }

    /** The probe: the mail sent for the order, or null. */
    public String findEmail(String orderId, String text) throws IOException, InterruptedException {
        return emailFor(orderId);
    }

    /** The mail the service holds under {@code order}, or null. */
    protected String emailFor(String order) throws IOException, InterruptedException {
        HttpResponse<String> r = get("emails?order=" + q(order));
        return r.statusCode() == 200 ? r.body() : null;
    }

    /** The check every mail tool names ({@code check = "checkSent"}): the engine and the kit's audit find it here. */
    void checkSent(String answer) {
        refuseErrors(answer, "the mail service refused");
    }
}
